// Starts the site: `node server.js` serves the production build (npm start builds it
// first); `node server.js --dev` serves through Vite with hot reload.
import http from "node:http";
import process from "node:process";

const dev = process.argv.includes("--dev");

// NODE_ENV as the operator gave it decides the site's rules (SITE_MODE: production rules or embedded
// defaults); after that it only picks the runtime's builds, and every run but --dev uses React's and
// Express's production builds (a development React renders pages many times slower).
process.env.SITE_MODE ||= process.env.NODE_ENV === "production" ? "production" : "embedded";
if (!dev) process.env.NODE_ENV = "production";

async function main() {
  let mod;
  let devOptions;
  if (dev) {
    const vite = await import("vite");
    const server = await vite.createServer({ server: { middlewareMode: true }, appType: "custom" });
    mod = await server.ssrLoadModule("./server/app.ts");
    devOptions = {
      middlewares: server.middlewares,
      loadBuild: () => server.ssrLoadModule("virtual:react-router/server-build"),
    };
  } else {
    const buildDir = process.env.BUILD_DIR ?? "build";
    mod = await import(new URL(`./${buildDir}/server/index.js`, import.meta.url).href);
  }

  let instance;
  try {
    instance = await mod.createApp({ dev: devOptions });
  } catch (error) {
    if (error && (error.name === "EnvError" || error.name === "DataDirLockedError")) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { handler, env, close } = instance;

  // The page cache answers anonymous public pages in `handler` before Express sees them.
  const server = http.createServer(handler);
  server.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
    // In embedded mode PUBLIC_URL (http://localhost:PORT) is the address e-mailed links use,
    // so it is the one to open: cookies set through it stay on the same host.
    const url =
      env.embedded && !process.env.PUBLIC_URL && port === env.PORT ? env.PUBLIC_URL : `http://${host}:${port}`;
    if (env.embedded) {
      const accounts = mod.DEMO_ACCOUNTS.map(
        (a) =>
          `    ${a.role.padEnd(6)} ${a.email.padEnd(28)} password: ${a.password}` +
          (a.twoFactorSecret ? `  two-factor secret (base32): ${a.twoFactorSecret}` : ""),
      ).join("\n");
      const db = env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${env.DATA_DIR}`;
      const mail = env.SMTP_URL ? "SMTP (SMTP_URL)" : `${url}/dev/mailbox`;
      console.log(
        [
          "",
          `  ${env.PRODUCT_NAME} site is running at ${url}`,
          "",
          "  Demo accounts:",
          accounts,
          "",
          `  Database: ${db}`,
          `  Mailbox:  ${mail}`,
          `  Payments: ${env.PAYMENT_PROVIDER === "demo" ? "demo checkout (no card data)" : mod.paymentsLabel(env)}`,
          "",
        ].join("\n"),
      );
    } else {
      const payments = mod.paymentsLabel(env);
      console.log(JSON.stringify({ level: 30, time: Date.now(), msg: `listening on ${url}`, payments }));
      // Paddle's sandbox on a production site takes no real payments: said at every start.
      const warning = mod.paymentsWarning(env);
      if (warning) console.log(JSON.stringify({ level: 40, time: Date.now(), msg: warning, payments }));
    }
  });

  // Graceful shutdown (decision 0045): /readyz turns 503 at once and answers close their connections;
  // after SHUTDOWN_DELAY_SECONDS (for a balancer that polls /readyz) the listener closes, so new
  // connections are refused and the balancer retries them on another instance; requests in flight
  // finish (cut after SHUTDOWN_TIMEOUT_SECONDS); then the job worker takes no new job and lets the
  // running ones finish (again at most SHUTDOWN_TIMEOUT_SECONDS), mail is flushed, the LISTEN
  // connection and the database pool close, and the process exits 0.
  let stopping = false;
  const log = (level, msg) => console.log(JSON.stringify({ level, time: Date.now(), msg }));
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    log(30, `${signal}: shutting down`);
    instance.drain();
    const timeoutMs = env.SHUTDOWN_TIMEOUT_SECONDS * 1000;
    const delayMs = env.SHUTDOWN_DELAY_SECONDS * 1000;
    // Whatever hangs, the process is gone within the bound.
    setTimeout(
      () => {
        log(50, "shutdown did not finish in time: exiting anyway");
        process.exit(1);
      },
      delayMs + 2 * timeoutMs + 5_000,
    ).unref();
    setTimeout(() => {
      setTimeout(() => server.closeAllConnections(), timeoutMs).unref();
      server.close(async () => {
        await close({ jobsTimeoutMs: timeoutMs }).catch((error) => log(50, `closing: ${error?.message ?? error}`));
        log(30, "stopped");
        process.exit(0);
      });
      server.closeIdleConnections();
    }, delayMs);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
