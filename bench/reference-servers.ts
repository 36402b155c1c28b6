// The servers the page cache is measured against (bench/throughput.ts): nginx serving the same bytes from a
// file, and a bare Node `http` server writing the same headers and bytes.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./support";

export interface ReferenceServer {
  url: string;
  stop: () => Promise<void>;
}

/** nginx on its own port, serving one file as `/` (gzip off, no access log). */
export async function startNginx(html: Buffer): Promise<ReferenceServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-nginx-"));
  fs.chmodSync(dir, 0o755); // nginx's workers run as another user when started by root
  const port = await freePort();
  fs.mkdirSync(path.join(dir, "www"));
  fs.writeFileSync(path.join(dir, "www", "index.html"), html);
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `daemon off;
worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  gzip off;
  types { text/html html; }
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    location = / { try_files /index.html =404; }
  }
}
`,
  );
  const bin = spawnSync("sh", ["-c", "command -v nginx || echo /usr/sbin/nginx"], { encoding: "utf8" }).stdout.trim();
  const child: ChildProcess = spawn(bin, ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "inherit" });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    const res = await fetch(url).catch(() => null);
    if (res?.ok) {
      if (!Buffer.from(await res.arrayBuffer()).equals(html)) throw new Error("nginx serves other bytes than the app");
      break;
    }
    if (i > 100) throw new Error(`nginx did not serve ${url} (${res?.status ?? "no answer"}): see ${dir}/error.log`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop: () => stopAndRemove(child, dir) };
}

/**
 * A bare Node `http` server in a process of its own (one core, as the app): every request answered with the
 * status, headers and body the app gave for `/` (Date and Connection are Node's own, as in the app).
 */
export async function startBareNode(html: Buffer, headers: [string, string][]): Promise<ReferenceServer> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-bare-node-"));
  fs.writeFileSync(path.join(dir, "body"), html);
  fs.writeFileSync(path.join(dir, "headers.json"), JSON.stringify(headers.flat()));
  const script = `
    const http = require("node:http"), fs = require("node:fs");
    const body = fs.readFileSync(${JSON.stringify(path.join(dir, "body"))});
    const headers = JSON.parse(fs.readFileSync(${JSON.stringify(path.join(dir, "headers.json"))}, "utf8"));
    http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); })
      .listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the bare Node server exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  const res = await fetch(url);
  if (!Buffer.from(await res.arrayBuffer()).equals(html)) throw new Error("the bare Node server sends other bytes");
  return { url, stop: () => stopAndRemove(child, dir) };
}

/** The headers of an answer as the app sent them, without those Node's server writes itself. */
export function answerHeaders(response: Response): [string, string][] {
  const own = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);
  return [...response.headers.entries()].filter(([name]) => !own.has(name));
}

/** Ends a reference server's process, then removes its directory. */
function stopAndRemove(child: ChildProcess, dir: string): Promise<void> {
  return new Promise<void>((resolve) => {
    child.once("exit", () => {
      fs.rmSync(dir, { recursive: true, force: true });
      resolve();
    });
    child.kill("SIGTERM");
  });
}
