import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deferScriptsUntilPainted, pageStream } from "~/server/page-stream.server";
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

  it("starts them on the first contentful paint, the module script first, then the preloads a few to a task", () => {
    const starter = /<script nonce="N">(\(function\(\)\{var done[\s\S]*?)<\/script>/.exec(out)![1]!;
    expect(starter).toContain('getEntriesByName("first-contentful-paint")');
    expect(starter).toContain('observe({type:"paint",buffered:true})');
    // A page opened in the background, or a browser without paint timing: the next frames, or 250 ms.
    expect(starter).toContain('document.visibilityState!=="hidden"');
    expect(starter).toContain("setTimeout(go,250)");
    expect(starter.indexOf('n.type="module"')).toBeLessThan(starter.indexOf('l.rel="modulepreload"'));
    expect(starter).toContain("links.splice(0,4)");
    expect(() => new Function(starter)).not.toThrow();
  });

  it("keeps the module script allowed by its hash when the page is stored (the copy has the same text)", () => {
    const module = 'import "/assets/root-B.js";\nimport("/assets/entry.client-A.js");';
    const hash = `sha256-${createHash("sha256").update(module).digest("base64")}`;
    expect(inlineScriptHashes(out)).toContain(hash);
  });

  it("changes nothing in a chunk without the head or the module script", () => {
    const head = Buffer.from(page.slice(0, page.indexOf("</head>")));
    expect(deferScriptsUntilPainted(head, "N")).toBe(head);
    const noModule = Buffer.from(page.replace(/<script nonce="N" type="module"[\s\S]*?<\/script>/, ""));
    expect(deferScriptsUntilPainted(noModule, "N")).toBe(noModule);
  });

  it("defers a document that comes in several chunks too: the starter ends the first chunk", () => {
    // A Suspense boundary not ready with the shell: the first chunk ends after the shell's scripts.
    const shell = page.slice(0, page.indexOf("</body>")) + '<div hidden id="S:0"><p>later</p></div>';
    const out = deferScriptsUntilPainted(Buffer.from(shell), "N").toString("utf8");
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toMatch(/<script[^>]* type="module"/);
    expect(out).toContain('type="x-deferred-module"');
    expect(out).toMatch(/<div hidden id="S:0"><p>later<\/p><\/div><script nonce="N">\(function\(\)\{var done/);
    expect(out.endsWith("</script>")).toBe(true);
    expect(out.match(/var done=false/g)).toHaveLength(1);
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

describe("pageStream: what React writes, sent as the response's body", () => {
  async function read(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return chunks;
  }
  const events = () => {
    const seen: string[] = [];
    return { seen, on: { finished: () => seen.push("finished"), cancelled: () => seen.push("cancelled") } };
  };

  it("sends each pass React writes as one chunk, the first with its scripts deferred", async () => {
    const { seen, on } = events();
    const { sink, body } = pageStream("N", on);
    const cut = page.indexOf("<main>");
    for (const piece of [page.slice(0, 10), page.slice(10, cut), page.slice(cut)]) sink.write(piece);
    sink.flush();
    sink.write('<div hidden id="S:0">later</div>');
    sink.write("<script>$RC()</script>");
    sink.flush();
    sink.flush();
    sink.end();
    const chunks = await read(body);
    expect(chunks.map((c) => Buffer.from(c).toString("utf8"))).toEqual([
      deferScriptsUntilPainted(Buffer.from(page), "N").toString("utf8"),
      '<div hidden id="S:0">later</div><script>$RC()</script>',
    ]);
    expect(seen).toEqual(["finished"]);
  });

  it("sends a long page, written in thousands of strings, as one chunk, byte for byte", async () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `<li data-i="${i}">Zoë №${i} — ✓</li>`);
    const long = page.replace("<main>Hello</main>", `<main><ul>${rows.join("")}</ul></main>`);
    expect(long.length).toBeGreaterThan(100_000);
    const { sink, body } = pageStream("N", events().on);
    for (let at = 0; at < long.length; at += 7) sink.write(long.slice(at, at + 7));
    sink.end();
    const chunks = await read(body);
    expect(chunks).toHaveLength(1);
    expect(Buffer.from(chunks[0]!).equals(deferScriptsUntilPainted(Buffer.from(long), "N"))).toBe(true);
  });

  it("writes text outside ASCII as UTF-8, whole", async () => {
    const accented = page
      .replace("<title>x</title>", "<title>Lizenzen für Zoë — ✓</title>")
      .replace("<main>Hello</main>", "<main>Grüße, 東京 🎉</main>");
    const { sink, body } = pageStream("N", events().on);
    for (const piece of accented.split(/(?<=ü|東|🎉)/u)) sink.write(piece);
    sink.end();
    const text = Buffer.concat(await read(body)).toString("utf8");
    expect(text).toContain("<title>Lizenzen für Zoë — ✓</title>");
    expect(text).toContain("<main>Grüße, 東京 🎉</main>");
    expect(text).toContain('type="x-deferred-module"');
  });

  it("stops the render when the client goes away, and errors the body when React gives up", async () => {
    const first = events();
    const cancelled = pageStream("N", first.on);
    await cancelled.body.cancel();
    cancelled.sink.write("late");
    cancelled.sink.flush();
    cancelled.sink.end();
    expect(first.seen).toEqual(["finished", "cancelled", "finished"]);

    const failed = pageStream("N", events().on);
    failed.sink.destroy(new Error("render failed"));
    await expect(read(failed.body)).rejects.toThrow("render failed");
  });
});
