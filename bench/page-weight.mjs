// Gzipped JavaScript and CSS the browser downloads for a page (default: /).
// Target: the home page ships at most 120 KB of gzipped JavaScript.
import { gzipSync } from "node:zlib";
import { ensureBuild, freshDataDir, startServer } from "./lib.mjs";

const buildDir = process.env.BUILD_DIR ?? "build-bench";
ensureBuild(buildDir);
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/download", "/pricing"];
const server = await startServer({ port: 4720, dataDir: freshDataDir("weight"), buildDir });
try {
  console.log("page weight (gzip -9 of each asset the page loads)");
  for (const page of pages) {
    const html = await (await fetch(server.url + page)).text();
    const js = new Set();
    const css = new Set();
    for (const m of html.matchAll(/<(script|link)\b[^>]*>/g)) {
      const tag = m[0];
      const src = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
      if (!src || !src.startsWith("/assets/")) continue;
      if (src.endsWith(".js")) js.add(src);
      else if (src.endsWith(".css")) css.add(src);
    }
    // Module imports inside the entry chunks are also downloaded: follow static imports.
    const queue = [...js];
    while (queue.length) {
      const src = queue.pop();
      const code = await (await fetch(server.url + src)).text();
      for (const m of code.matchAll(/(?:import|from)\s*["'](\.\/[^"']+\.js|\/assets\/[^"']+\.js)["']/g)) {
        const dep = m[1].startsWith("./") ? new URL(m[1], server.url + src).pathname : m[1];
        if (!js.has(dep)) {
          js.add(dep);
          queue.push(dep);
        }
      }
    }
    const size = async (set) => {
      let raw = 0;
      let gz = 0;
      for (const src of set) {
        const buf = Buffer.from(await (await fetch(server.url + src)).arrayBuffer());
        raw += buf.length;
        gz += gzipSync(buf, { level: 9 }).length;
      }
      return { raw, gz };
    };
    const j = await size(js);
    const c = await size(css);
    // The site's stylesheet is inlined in the head (no request): counted as CSS all the same.
    for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)) {
      const buf = Buffer.from(m[1]);
      c.raw += buf.length;
      c.gz += gzipSync(buf, { level: 9 }).length;
    }
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`  ${page}`);
    console.log(
      `    JavaScript: ${kb(j.gz)} gzipped (${kb(j.raw)} raw, ${js.size} files)${page === "/" ? `   target ≤ 120 KB: ${j.gz <= 120 * 1024 ? "met" : "MISSED"}` : ""}`,
    );
    console.log(`    CSS:        ${kb(c.gz)} gzipped (${kb(c.raw)} raw, ${css.size} files, the rest inline)`);
  }
} finally {
  await server.stop();
}
