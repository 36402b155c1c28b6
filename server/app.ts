import { createLoadContext } from "./load-context";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServerBuild } from "react-router";
import { toNodeHandler } from "better-auth/node";
import { CLIENT_IP_HEADER, confirmationUrl, getAuth } from "../app/server/auth/auth.server";
import { createCaches } from "../app/server/cache/caches.server";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { DEMO_DOWNLOAD_PATH, getEnv, publicConfig, type Env } from "../app/server/env.server";
import { paymentsLabel, paymentsWarning } from "../app/server/payments-label.server";
import { flushLogs, getLogger } from "../app/server/logger.server";
import { JOB_DEFINITIONS } from "../app/server/jobs/definitions.server";
import { startJobs, stopJobs } from "../app/server/jobs/jobs.server";
import { scheduleReminderScans } from "../app/server/mail/reminders.server";
import { scheduleHousekeeping } from "../app/server/housekeeping/housekeeping-job.server";
import { scheduleFallbackBackfill } from "../app/server/licenses/fallback-backfill.server";
import { scheduleMachineInactivity } from "../app/server/machines/machine-jobs.server";
import { flushMail } from "../app/server/mail/outbox.server";
import { DEMO_ACCOUNTS, seedDemoData } from "../app/server/seed.server";
import { apiV1 } from "./api-v1";
import { bodyLimit } from "./body-limit";
import { demoDownload } from "./demo-download";
import { queryGuard } from "./query-guard";
import { originGuard } from "./origin-guard";
import { routeParams } from "./route-params";
import { capturedHeaders, nonce, securityHeaders } from "./security-headers";
import { apiFastPath } from "./api-fast-path";
import { clientFiles } from "./static-files";
import { refuseMalformedUrl } from "./url-guard";
import { parseTrustProxy, trustProxyCheck } from "./trust-proxy";
import { logRequest, requestId, requestLog } from "./request-log";
import { listenForBackups } from "./backup-socket";
import { addHealthRoutes, readiness } from "./health";
import { setUpMetrics, type Metrics } from "./metrics";

export { DEMO_ACCOUNTS, paymentsLabel, paymentsWarning };

type Caches = Awaited<ReturnType<typeof createCaches>>;
type Logger = ReturnType<typeof getLogger>;

export interface AppInstance {
  /** The Express app: every request the page cache does not answer. */
  app: express.Express;
  /**
   * The HTTP server's request listener (`http.createServer(handler)`): anonymous public pages from
   * the page cache at once, everything else through `app`.
   */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  env: Env;
  database: DatabaseHandle;
  /**
   * SIGTERM's first step (server.js): /readyz answers 503 from now on and every answer closes its
   * connection, so the load balancer stops sending here while requests in flight finish.
   */
  drain: () => void;
  /** Stops the jobs (running ones get `jobsTimeoutMs`), closes the database and releases the data directory. */
  close: (options?: { jobsTimeoutMs?: number }) => Promise<void>;
}

export interface CreateAppOptions {
  /** Dev mode: Vite serves assets and the build is loaded on each request. */
  dev?: {
    middlewares: express.RequestHandler;
    loadBuild: () => Promise<ServerBuild>;
  };
}

/** The database, migrated (and seeded in embedded mode), with the background jobs started on it. */
async function openPreparedDatabase(env: Env): Promise<DatabaseHandle> {
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await database.migrate();
    setDatabase(database);
    if (env.embedded) await seedDemoData(database.db);
    // Background jobs (pg-boss, state in this database): queued jobs from before a restart run now.
    await startJobs(database, { definitions: JOB_DEFINITIONS, name: "app" });
    // Reminder e-mails: the hourly scan chains itself; queueing this and the next hour's run is idempotent.
    await scheduleReminderScans();
    await scheduleHousekeeping();
    // Once per database, ever: existing licenses' perpetual fallback (decision 0075).
    await scheduleFallbackBackfill();
    await scheduleMachineInactivity();
  } catch (error) {
    await stopJobs().catch(() => {});
    await database.close();
    throw error;
  }
  return database;
}

/** Production on the embedded database: said at every start, with the backup command. */
function warnSingleInstance(env: Env, logger: Logger): void {
  logger.warn(
    { dataDir: env.DATA_DIR, backup: "npm run backup -- <file> (docs/operations.md#backups-and-restore)" },
    "embedded database (PGlite): one instance only; back it up while it runs with npm run backup -- <file>",
  );
}

/** Whether a Better Auth e-mail token is a change of address (its unchecked claims; Better Auth checks them). */
function changesAddress(token: string): boolean {
  try {
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as unknown;
    return typeof claims === "object" && claims !== null && "updateTo" in claims;
  } catch {
    return false;
  }
}

function addAuthEndpoints(app: express.Express): void {
  // Of Better Auth's HTTP endpoints only the e-mail confirmation link is exposed (and the OAuth return); every
  // other auth step goes through our route actions (validation, rate limits, texts).
  // A registration's confirmation link (one e-mailed before decision 0059 too) goes to our page, which
  // signs nobody in by the link alone (decision 0059); Better Auth keeps the change-of-address links.
  app.get("/api/auth/verify-email", (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : "";
    if (!changesAddress(token)) {
      const callback = typeof req.query.callbackURL === "string" ? req.query.callbackURL : null;
      const page = new URL(confirmationUrl(token, callback));
      res.redirect(302, page.pathname + page.search);
      return;
    }
    void toNodeHandler(getAuth())(req, res);
  });
  // …and the return from GitHub / Google (sign-in, or connecting from the profile).
  app.get("/api/auth/callback/:providerId", (req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    void toNodeHandler(getAuth())(req, res);
  });
}

/** Express's error handler: whatever a route threw is logged and answered 500 in plain words. */
function lastResort(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error, path: req.path }, "unhandled error");
    if (res.headersSent) return;
    res.status(500).type("text/plain").send("Something went wrong on our side. Please try again.");
  };
}

/**
 * The HTTP server's request listener: malformed addresses refused, then (in production) answers from
 * the caches before Express, everything else through `app`.
 */
function frontDoor(
  app: express.Express,
  caches: Caches,
  logger: Logger,
  checkTrustProxy: (req: IncomingMessage) => void,
  fastApi: ReturnType<typeof apiFastPath> | null,
  metrics: Metrics | null,
  draining: () => boolean,
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    // Shutting down: this answer is the connection's last (a keep-alive client reconnects elsewhere).
    if (draining()) res.shouldKeepAlive = false;
    if (refuseMalformedUrl(req, res, logger)) return;
    const started = process.hrtime.bigint();
    checkTrustProxy(req);
    if (fastApi) {
      const id = requestId(req);
      // The desktop tool's validations and key fetches (decision 0051), then the page caches.
      if (fastApi(req, res, id, started)) return;
      const answered = caches.serve(req, res, id);
      if (answered) {
        metrics?.answered(req.method, req.url!, answered.status, started);
        return logRequest(logger, id, req.method, req.url!, answered.status, started, answered.bytes);
      }
      // Express's request log reuses both.
      (res as ServerResponse & { locals?: Record<string, unknown> }).locals = { requestId: id, started };
    }
    app(req, res);
  };
}

/** Boots the app: configuration, database (migrated, seeded in embedded mode), Express. */
export async function createApp(options: CreateAppOptions = {}): Promise<AppInstance> {
  const env = getEnv();
  const logger = getLogger();
  const database = await openPreparedDatabase(env);

  const app = express();
  app.disable("x-powered-by");
  if (env.TRUST_PROXY) app.set("trust proxy", parseTrustProxy(env.TRUST_PROXY));

  const checkTrustProxy = trustProxyCheck(logger, env.TRUST_PROXY);
  app.use(requestLog(logger));
  // In production the build is one object: React Router derives its route table and request handler
  // from it once. Given a function it derives them again on every request (dev's hot reload needs that).
  const serverBuild = options.dev
    ? null
    : ((await import("virtual:react-router/server-build")) as unknown as ServerBuild);
  const build = options.dev ? options.dev.loadBuild : () => Promise.resolve(serverBuild!);
  // Public pages, a session's own pages and remembered sessions from memory (docs/caching.md): answered
  // by `handler` before Express; here a miss is marked to be kept once rendered.
  const { authCookies } = await getAuth().$context;
  const caches = await createCaches({
    databaseUrl: env.DATABASE_URL,
    database,
    cookies: { sessionToken: authCookies.sessionToken.name, sessionData: authCookies.sessionData.name },
    logger,
    countryHeader: env.COUNTRY_HEADER,
  });
  const stopBackups = database.pglite ? await listenForBackups(env.DATA_DIR, database.pglite, logger) : null;
  if (database.pglite && !env.embedded) warnSingleInstance(env, logger);
  const ready = async () => (await readiness(env, database, caches)).parts;
  const metrics = await setUpMetrics(app, env, build, { database, readiness: ready }, logger);
  if (metrics) app.use(metrics.timing);
  if (!options.dev) app.use(caches.mark);
  app.use(nonce);
  const headers = securityHeaders(env, Boolean(options.dev));
  app.use(headers);
  app.use("/api/v1", apiV1); // The desktop API applies the body limit itself, so that its 413 is signed too.
  // Before anything reads a body: a write sent from another origin gets 403 (decision 0055).
  app.use(originGuard(env));
  // Before anything reads a body or a query: oversized bodies get 413, control characters in
  // the query string 400.
  app.use(bodyLimit());
  app.use(queryGuard());
  app.use(compression());
  if (!options.dev) app.use(caches.capture);

  let draining = false;
  addHealthRoutes(app, env, database, caches, () => draining);
  addAuthEndpoints(app);
  app.get(DEMO_DOWNLOAD_PATH, demoDownload(env));

  if (options.dev) {
    app.use(options.dev.middlewares);
  } else {
    const { assets, publicFiles } = clientFiles();
    app.use("/assets", assets);
    app.use(publicFiles);
  }

  const config = publicConfig(env);
  app.use(caches.privateCache);
  app.use(routeParams(build));
  app.use(
    createRequestHandler({
      build: serverBuild ?? build,
      mode: options.dev ? "development" : "production",
      getLoadContext: (req, res) => createLoadContext(req, res, config),
    }),
  );

  app.use(lastResort(logger));

  // Not in dev mode (Vite's middleware and hot reload go through Express, as the caches do).
  const fastApi = options.dev ? null : apiFastPath({ app, logger, metrics, securityHeaders: capturedHeaders(headers) });
  const handler = frontDoor(app, caches, logger, checkTrustProxy, fastApi, metrics, () => draining);

  return {
    app,
    handler,
    env,
    database,
    drain: () => {
      draining = true;
    },
    close: async ({ jobsTimeoutMs } = {}) => {
      // Running jobs finish (or are released for a retry) and e-mails queued by the last requests
      // are sent (or kept in the dev mailbox) before the database closes.
      await stopJobs({ timeoutMs: jobsTimeoutMs });
      await flushMail();
      await stopBackups?.();
      await metrics?.close();
      await caches.close();
      flushLogs();
      setDatabase(undefined);
      await database.close();
    },
  };
}
