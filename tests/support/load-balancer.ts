import { execFileSync, execSync, spawn } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { REPO_ROOT } from "./server-process";

/**
 * nginx (Debian's package) as the load balancer in front of app instances, run by a test: a
 * self-signed certificate made with openssl, nginx as a non-daemon child with its own prefix and
 * main configuration in a temporary directory, and the site configuration from deploy/nginx.conf
 * (the file docs/deployment.md tells operators to copy) with only its ports and certificate paths
 * swapped.
 */

const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

/** nginx's path; installs Debian's package with apt-get when it is missing and we are root (as CI is). */
export function ensureNginx(): string {
  if (fs.existsSync(NGINX)) return NGINX;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || process.env.NGINX_PATH) {
    throw new Error(
      `nginx is missing at ${NGINX}: the rolling-deploy test runs it as the load balancer. Install Debian's ` +
        "package as root (apt-get update && apt-get install -y nginx) or point NGINX_PATH at an nginx binary.",
    );
  }
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx", { stdio: "inherit" });
  if (!fs.existsSync(NGINX)) throw new Error(`apt-get installed nginx but ${NGINX} is still missing`);
  return NGINX;
}

/** A self-signed certificate for 127.0.0.1 (one day), made with openssl. */
export function selfSignedCertificate(dir: string): { cert: string; key: string; pem: Buffer } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ]),
    { stdio: "ignore" },
  );
  return { cert, key, pem: fs.readFileSync(cert) };
}

/** deploy/nginx.conf with the test's ports and certificate; every swapped line must be there. */
export function siteConfig(o: { httpPort: number; httpsPort: number; upstreams: number[]; cert: string; key: string }) {
  let text = fs.readFileSync(path.join(REPO_ROOT, "deploy/nginx.conf"), "utf8");
  const swap = (from: string, to: string) => {
    if (!text.includes(from)) throw new Error(`deploy/nginx.conf no longer has "${from}": update the test with it`);
    text = text.replace(from, to);
  };
  swap("listen 80;", `listen 127.0.0.1:${o.httpPort};`);
  swap("listen 443 ssl http2;", `listen 127.0.0.1:${o.httpsPort} ssl http2;`);
  swap("/etc/ssl/forgekit/fullchain.pem", o.cert);
  swap("/etc/ssl/forgekit/privkey.pem", o.key);
  o.upstreams.forEach((port, i) => swap(`server 127.0.0.1:${3001 + i} `, `server 127.0.0.1:${port} `));
  return text;
}

export interface Nginx {
  /** What nginx wrote to its error log (upstream failures and retries are logged there). */
  errorLog: () => string;
  stop: () => Promise<void>;
}

/** nginx in the foreground on `site` (a server-level configuration), prefix and logs in `dir`. */
export async function startNginx(dir: string, site: string, probe: () => Promise<boolean>): Promise<Nginx> {
  const binary = ensureNginx();
  for (const sub of ["logs", "tmp"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  fs.writeFileSync(path.join(dir, "site.conf"), site);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `  ${kind}_temp_path ${path.join(dir, "tmp", kind)};`)
    .join("\n");
  const errorLog = path.join(dir, "logs", "error.log");
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      "daemon off;",
      "worker_processes 1;",
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${errorLog} warn;`,
      "events { worker_connections 1024; }",
      "http {",
      "  access_log off;",
      temp,
      `  include ${path.join(dir, "site.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const child = spawn(binary, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", errorLog], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const readLog = () => (fs.existsSync(errorLog) ? fs.readFileSync(errorLog, "utf8") : "");
  const deadline = Date.now() + 15_000;
  while (!(await probe().catch(() => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not start:\n${readLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    errorLog: readLog,
    stop: async () => {
      // SIGQUIT: nginx's graceful stop.
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
    },
  };
}

export interface TlsResponse {
  /** The status, or "error" when no answer came (the message is in `error`). */
  status: number | "error";
  headers: Record<string, string | string[] | undefined>;
  body: string;
  error?: string;
}

/** An HTTPS client for the balancer that trusts only the test's certificate, with kept-alive connections. */
export function tlsClient(port: number, ca: Buffer) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 16, ca });
  const origin = `https://127.0.0.1:${port}`;
  const request = (method: string, url: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<TlsResponse>((resolve) => {
      const all = { ...headers, ...(body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(body)) }) };
      const req = https.request(`${origin}${url}`, { method, headers: all, agent, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", (error) => resolve({ status: "error", headers: {}, body: "", error: error.message }));
      });
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (error) => resolve({ status: "error", headers: {}, body: "", error: error.message }));
      req.end(body);
    });
  return { origin, request, close: () => agent.destroy() };
}
