import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deferScriptsUntilPainted } from "~/entry.server";
import { inlineScriptHashes } from "~/server/cache/capture.server";

const page = [
  "<!DOCTYPE html><html><head><title>x</title>",
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N"/>',
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="N"/>',
  "<style>body{}</style></head><body><main>Hello</main>",
  '<script nonce="N">window.__reactRouterContext = {};</script>',
  '<script nonce="N" type="module" async="">import "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
  "</body></html>",
].join("");

describe("deferScriptsUntilPainted: the page's scripts wait for its first paint", () => {
  const out = deferScriptsUntilPainted(Buffer.from(page), "N").toString("utf8");

  it("leaves the module preloads and the module script inert, everything else as it was", () => {
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out.match(/<link rel="x-modulepreload"/g)).toHaveLength(2);
    expect(out).not.toMatch(/<script[^>]* type="module"/);
    expect(out).toContain(
      '<script nonce="N" type="x-deferred-module" async="">import "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
    );
    expect(out).toContain("<main>Hello</main>");
    expect(out).toContain('<script nonce="N">window.__reactRouterContext = {};</script>');
  });

  it("adds one script, with the page's nonce, just before </body>, that turns them back on", () => {
    const starter = /<script nonce="N">(\(function\(\)\{var done[\s\S]*?)<\/script><\/body><\/html>$/.exec(out);
    expect(starter).not.toBeNull();
    expect(starter![1]).toContain('l.rel="modulepreload"');
    expect(starter![1]).toContain('n.type="module"');
    expect(starter![1]).toContain("requestAnimationFrame");
  });

  it("keeps the module script allowed by its hash when the page is stored (the copy has the same text)", () => {
    const module = 'import "/assets/root-B.js";\nimport("/assets/entry.client-A.js");';
    const hash = `sha256-${createHash("sha256").update(module).digest("base64")}`;
    expect(inlineScriptHashes(out)).toContain(hash);
  });

  it("changes nothing when the document does not arrive whole, or has no module script", () => {
    const head = Buffer.from(page.slice(0, page.indexOf("<main>")));
    expect(deferScriptsUntilPainted(head, "N")).toBe(head);
    const noModule = Buffer.from(page.replace(/<script nonce="N" type="module"[\s\S]*?<\/script>/, ""));
    expect(deferScriptsUntilPainted(noModule, "N")).toBe(noModule);
  });

  it("keeps text outside ASCII whole around the rewritten parts (the page is cut at byte offsets)", () => {
    const accented = page
      .replace("<title>x</title>", "<title>Lizenzen für Zoë — ✓</title>")
      .replace("<main>Hello</main>", "<main>Grüße, 東京 🎉</main>");
    const rewritten = deferScriptsUntilPainted(Buffer.from(accented), "N").toString("utf8");
    expect(rewritten).toContain("<title>Lizenzen für Zoë — ✓</title>");
    expect(rewritten).toContain("<main>Grüße, 東京 🎉</main>");
    expect(rewritten).toContain('type="x-deferred-module"');
    expect(rewritten).not.toContain("\uFFFD");
  });
});
