// The floor under a signed-in page's first view: what React alone takes to write the page's markup.
// Starts the built site (`node server.js` on BUILD_DIR, default build-test/, embedded defaults on PGlite),
// signs in as the demo customer and takes the rendered /licenses (and /billing, /profile: BENCH_PAGES),
// rebuilds each page's body as plain React elements (no component, no hook, no data: the same tags,
// attributes and text), and times React's server renderer writing it in this process, both as a string
// and as the stream the site uses. Beside it, the server's own CPU per request for /healthz and for the
// page rendered, from /proc, under wrk (BENCH_DURATION s each, default 5; wrk installed when missing).
// What it says: a page whose markup alone costs React N ms cannot be served in less, whatever the
// loader and the components do; /healthz's CPU ÷ that floor is the best "× /healthz" the markup allows.
import { spawnSync } from "node:child_process";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
// The build the site renders with (decision 0086).
import { renderToPipeableStream } from "react-dom/server.bun";
import { pageStream } from "../app/server/page-stream.server";
import { signIn } from "../tests/support/raw-http";
import { startServer, tempDir } from "../tests/support/server-process";
import { cpuMs, cpuSpent, ensureWrk } from "./license-api/wrk";
import { freePort } from "./support";

const PAGES = (process.env.BENCH_PAGES ?? "/licenses,/billing,/profile").split(",").filter(Boolean);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 300);
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);

// React picks its build when first loaded, from NODE_ENV: this runs again under the production build,
// the one the server renders with (the development build is two to three times slower).
if (process.env.NODE_ENV !== "production") {
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, NODE_ENV: "production" },
    stdio: "inherit",
  });
  process.exit(again.status ?? 1);
}
const VOID = new Set(["area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"]);
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };

type Node = string | { tag: string; props: Record<string, string | boolean>; children: Node[] };

const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name]!);
const propName = (name: string) =>
  name === "class"
    ? "className"
    : name === "for"
      ? "htmlFor"
      : name.startsWith("data-") || name.startsWith("aria-")
        ? name
        : name.replace(/-(.)/g, (_, c: string) => c.toUpperCase());

/** The body's elements as a tree: scripts, comments and inline styles left out (React writes them itself). */
function parse(html: string): Node[] {
  const body = html.slice(html.indexOf(">", html.indexOf("<body")) + 1, html.lastIndexOf("</body>"));
  const root: Node[] = [];
  const stack: { tag: string; children: Node[] }[] = [{ tag: "", children: root }];
  const token =
    /<!--[\s\S]*?-->|<script[\s\S]*?<\/script>|<\/([a-zA-Z0-9-]+)>|<([a-zA-Z0-9-]+)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>|([^<]+)/g;
  for (const match of body.matchAll(token)) {
    const [all, closing, tag, attributes, text] = match;
    const parent = stack.at(-1)!;
    if (text !== undefined) {
      if (text.trim()) parent.children.push(decode(text));
    } else if (closing) {
      if (stack.length > 1 && parent.tag === closing) stack.pop();
    } else if (tag) {
      const props: Record<string, string | boolean> = {};
      for (const [, name, value] of (attributes ?? "").matchAll(/([^\s=>/]+)(?:="([^"]*)")?/g)) {
        if (name !== "style") props[propName(name!)] = value === undefined ? true : decode(value);
      }
      // The shapes inside an icon are its markup (decision 0084): kept as such.
      if (tag === "svg") {
        const end = body.indexOf("</svg>", match.index! + all.length);
        props.dangerouslySetInnerHTML = true;
        parent.children.push({ tag, props: { ...props }, children: [body.slice(match.index! + all.length, end)] });
        token.lastIndex = end + "</svg>".length;
        continue;
      }
      const node = { tag, props, children: [] as Node[] };
      parent.children.push(node);
      if (!VOID.has(tag) && !all.endsWith("/>")) stack.push(node);
    }
  }
  return root;
}

function toElement(node: Node, key: number): ReactNode {
  if (typeof node === "string") return node;
  const { dangerouslySetInnerHTML, ...props } = node.props;
  if (dangerouslySetInnerHTML) {
    return createElement(node.tag, { ...props, key, dangerouslySetInnerHTML: { __html: node.children[0] } });
  }
  return createElement(node.tag, { ...props, key }, ...node.children.map(toElement));
}

function timeRenders(tree: Node[]): { string: number; elements: number } {
  const page = () => createElement("div", null, ...tree.map(toElement));
  let elements = 0;
  const count = (nodes: Node[]) => nodes.forEach((n) => typeof n !== "string" && (elements++, count(n.children)));
  count(tree);
  for (let i = 0; i < 30; i++) renderToString(page());
  const start = performance.now();
  for (let i = 0; i < RENDERS; i++) renderToString(page());
  return { string: (performance.now() - start) / RENDERS, elements };
}

async function timeStream(tree: Node[]): Promise<number> {
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const page = pageStream("N", { finished: () => undefined, cancelled: () => undefined });
      const { pipe } = renderToPipeableStream(createElement("div", null, ...tree.map(toElement)), {
        onAllReady: () => pipe(page.sink as unknown as NodeJS.WritableStream),
        onShellError: reject,
      });
      void (async () => {
        for await (const _chunk of page.body);
      })().then(resolve, reject);
    });
  for (let i = 0; i < 30; i++) await once();
  const start = performance.now();
  for (let i = 0; i < RENDERS; i++) await once();
  return (performance.now() - start) / RENDERS;
}

const headerArgs = (headers: Record<string, string>) =>
  Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);

/** The server's CPU per request under wrk (four connections, as bench:compare measures). */
function serverCpu(pid: number, url: string, headers: Record<string, string>): number {
  const args = headerArgs(headers);
  spawnSync("wrk", ["-t1", "-c4", "-d1s", ...args, url]);
  const before = cpuMs([pid]);
  const result = spawnSync("wrk", ["-t1", "-c4", `-d${SECONDS}s`, ...args, url], { encoding: "utf8" });
  const spent = cpuSpent(before, cpuMs([pid]));
  const requests = Number(/(\d+) requests in/.exec(result.stdout)?.[1]);
  if (result.status !== 0 || !requests || /Non-2xx/.test(result.stdout))
    throw new Error(`wrk ${url}:\n${result.stdout}`);
  return spent / requests;
}

async function main() {
  if (!ensureWrk()) return;
  const server = await startServer({
    port: await freePort(),
    dataDir: tempDir("bench-render-floor-"),
    env: { AUTH_RATE_LIMIT: "1000000000", LOG_LEVEL: "warn" },
  });
  try {
    const cookie = (await signIn(server.port, "demo@forgekit.example", "user-demo-1"))
      .split("; ")
      .filter((c) => c.includes("session_token"))
      .join("; ");
    const rendered = { Cookie: cookie, "Accept-Encoding": "identity" };
    const healthz = serverCpu(server.pid, `${server.origin}/healthz`, {});
    console.log(
      `render floor: React alone writing each page's markup (${RENDERS} renders), against the server (PGlite)`,
    );
    console.log(`  server /healthz: ${healthz.toFixed(3)} ms of CPU a request`);
    for (const path of PAGES) {
      const html = spawnSync("curl", ["-sf", ...headerArgs(rendered), `${server.origin}${path}`], {
        encoding: "utf8",
      }).stdout;
      const tree = parse(html);
      const { string, elements } = timeRenders(tree);
      const stream = await timeStream(tree);
      const served = serverCpu(server.pid, `${server.origin}${path}`, rendered);
      console.log(
        `  ${path.padEnd(10)} ${(html.length / 1024).toFixed(0)} KB, ${elements} elements: React alone ${string.toFixed(2)} ms ` +
          `as a string, ${stream.toFixed(2)} ms as a stream; the server ${served.toFixed(2)} ms a view. ` +
          `Best ratio the markup allows: ${(healthz / stream).toFixed(3)} × /healthz (the view now ${(healthz / served).toFixed(3)} ×)`,
      );
    }
  } finally {
    await server.stop();
  }
}

await main();
