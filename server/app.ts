import { createLoadContext } from "./load-context";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import type { ServerBuild } from "react-router";
import { toNodeHandler } from "better-auth/node";
import { CLIENT_IP_HEADER, getAuth } from "../app/server/auth/auth.server";
import { oauthFormOrigins } from "../app/server/auth/oauth-providers.server";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { getEnv, publicConfig, type Env } from "../app/server/env.server";
import { paymentsLabel, paymentsWarning } from "../app/server/payments-label.server";
import { flushLogs, getLogger } from "../app/server/logger.server";
import { JOB_DEFINITIONS } from "../app/server/jobs/definitions.server";
import { jobsStatus, startJobs, stopJobs } from "../app/server/jobs/jobs.server";
import { scheduleReminderScans } from "../app/server/mail/reminders.server";
import { scheduleHousekeeping } from "../app/server/housekeeping/housekeeping-job.server";
import { flushMail } from "../app/server/mail/outbox.server";
import { DEMO_ACCOUNTS, seedDemoData } from "../app/server/seed.server";
import { apiV1 } from "./api-v1";
import { bodyLimit } from "./body-limit";
import { privateCache } from "./private-cache";
import { queryGuard } from "./query-guard";
import { routeParams } from "./route-params";
import { refuseMalformedUrl } from "./url-guard";
import { parseTrustProxy, trustProxyCheck } from "./trust-proxy";
import { logRequest, requestId, requestLog } from "./request-log";
import { onPublicPagesChanged, PUBLIC_PAGES_CHANNEL } from "../app/server/public-pages.server";
import {
  cachedSession,
  forgetSessionsOf,
  SESSIONS_CHANNEL,
  setSessionCacheEnabled,
} from "../app/server/auth/session-cache.server";
import { USER_CHANGES_CHANNEL } from "../app/server/user-changes.server";
import { createPageCache } from "./page-cache";
import { createSignedInPageCache } from "./signed-in-page-cache";
import { listenForChanges } from "./change-listener";
import { listenForBackups } from "./backup-socket";
import { createZip } from "./zip";

export { DEMO_ACCOUNTS, paymentsLabel, paymentsWarning };

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
  /** Closes the database and releases the data directory. */
  close: () => Promise<void>;
}

export interface CreateAppOptions {
  /** Dev mode: Vite serves assets and the build is loaded on each request. */
  dev?: {
    middlewares: express.RequestHandler;
    loadBuild: () => Promise<ServerBuild>;
  };
}

/** Boots the app: configuration, database (migrated, seeded in embedded mode), Express. */
export async function createApp(options: CreateAppOptions = {}): Promise<AppInstance> {
  const env = getEnv();
  const logger = getLogger();
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
  } catch (error) {
    await stopJobs().catch(() => {});
    await database.close();
    throw error;
  }

  const app = express();
  app.disable("x-powered-by");
  if (env.TRUST_PROXY) app.set("trust proxy", parseTrustProxy(env.TRUST_PROXY));

  const checkTrustProxy = trustProxyCheck(logger, env.TRUST_PROXY);
  app.use(requestLog(logger));
  // Anonymous visitors' public pages from memory, before any other work is done for them: answered
  // by `handler` before Express; here a miss is marked to be kept once rendered.
  const pageCache = createPageCache();
  // A session's own pages (and the admin area) from memory while nothing on them changed (decision 0028).
  const { authCookies } = await getAuth().$context;
  const signedInPages = createSignedInPageCache({
    cookies: { sessionToken: authCookies.sessionToken.name, sessionData: authCookies.sessionData.name },
    session: cachedSession,
  });
  // A user's row changed in the database, by whatever means (a script's SQL as much as the app): their
  // remembered sessions (role, name, two-factor, ended sessions) and their pages are forgotten.
  const userChanged = (userId: string) => {
    if (userId) forgetSessionsOf(userId);
    signedInPages.forgetUser(userId);
  };
  // A release changed: the public pages and the admin pages show releases.
  const publicPagesChanged = () => {
    pageCache.invalidate();
    signedInPages.forgetShared();
  };
  const stopListening = onPublicPagesChanged(publicPagesChanged);
  // What other app servers change reaches this one through PostgreSQL's LISTEN/NOTIFY; while that
  // connection is down, cached pages are forgotten and sessions are not remembered at all. The
  // embedded database has one process: every change is made here, and its user-change triggers'
  // notifications arrive as each change commits.
  const listener = env.DATABASE_URL
    ? await listenForChanges(
        env.DATABASE_URL,
        {
          [PUBLIC_PAGES_CHANNEL]: publicPagesChanged,
          [SESSIONS_CHANNEL]: forgetSessionsOf,
          [USER_CHANGES_CHANNEL]: userChanged,
        },
        (listening) => {
          if (!listening) {
            pageCache.invalidate();
            signedInPages.forgetAll();
          }
          setSessionCacheEnabled(listening);
        },
        logger,
      )
    : null;
  const stopEmbeddedListener = database.pglite ? await database.pglite.listen(USER_CHANGES_CHANNEL, userChanged) : null;
  const stopBackups = database.pglite ? await listenForBackups(env.DATA_DIR, database.pglite, logger) : null;
  if (database.pglite && !env.embedded) {
    logger.warn(
      { dataDir: env.DATA_DIR, backup: "npm run backup -- <file> (docs/operations.md#backups-and-restore)" },
      "embedded database (PGlite): one instance only; back it up while it runs with npm run backup -- <file>",
    );
  }
  if (!listener) setSessionCacheEnabled(true);
  if (!options.dev) {
    app.use(pageCache.mark);
    app.use(signedInPages.mark);
  }
  app.use(nonce);
  app.use(securityHeaders(env, Boolean(options.dev)));
  app.use("/api/v1", apiV1); // The desktop API applies the body limit itself, so that its 413 is signed too.
  // Before anything reads a body or a query: oversized bodies get 413, control characters in
  // the query string 400.
  app.use(bodyLimit());
  app.use(queryGuard());
  app.use(compression());
  if (!options.dev) {
    app.use(pageCache.capture);
    app.use(signedInPages.capture);
  }

  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    const about = {
      database: database.engine,
      mode: env.embedded ? "embedded" : "production",
      runtime: runtime(),
      payments: paymentsLabel(env),
    };
    try {
      await database.ping();
      const { ok, queued, failed } = await jobsStatus();
      res.status(ok ? 200 : 503).json({ status: ok ? "ready" : "unavailable", ...about, jobs: { ok, queued, failed } });
    } catch {
      res.status(503).json({ status: "unavailable", ...about });
    }
  });
  // Of Better Auth's HTTP endpoints only the e-mail confirmation link is exposed (and the OAuth return); every
  // other auth step goes through our route actions (validation, rate limits, texts).
  app.get("/api/auth/verify-email", (req, res) => {
    void toNodeHandler(getAuth())(req, res);
  });
  // …and the return from GitHub / Google (sign-in, or connecting from the profile).
  app.get("/api/auth/callback/:providerId", (req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    void toNodeHandler(getAuth())(req, res);
  });
  app.get("/downloads/forgekit-latest.zip", (_req, res) => {
    // The embedded default for DOWNLOAD_URL: a real archive, so the link works in the demo.
    res
      .set("Content-Type", "application/zip")
      .set("Content-Disposition", `attachment; filename="${slug(env.PRODUCT_NAME)}-latest.zip"`)
      .send(demoInstaller(env.PRODUCT_NAME));
  });

  if (options.dev) {
    app.use(options.dev.middlewares);
  } else {
    const clientDir = findClientDir();
    // Hashed file names never change content: cache them for a year.
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
    // The other public files (favicon, icons…) are known at start: a page or data request is not
    // sent to the static handler, which would look for a file of its name on disk every time.
    const publicFiles = listPublicFiles(clientDir);
    const publicFile = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (publicFiles.has(req.path) ? publicFile(req, res, next) : next()));
  }

  const build = options.dev
    ? options.dev.loadBuild
    : () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
  const config = publicConfig(env);
  app.use(privateCache());
  app.use(routeParams(build));
  app.use(
    createRequestHandler({
      build,
      mode: options.dev ? "development" : "production",
      getLoadContext: (req, res) => createLoadContext(req, res, config),
    }),
  );

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error, path: req.path }, "unhandled error");
    if (res.headersSent) return;
    res.status(500).type("text/plain").send("Something went wrong on our side. Please try again.");
  });

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (refuseMalformedUrl(req, res, logger)) return;
    const started = process.hrtime.bigint();
    checkTrustProxy(req);
    if (!options.dev) {
      const id = requestId(req);
      const answered = pageCache.serve(req, res, id) ?? signedInPages.serve(req, res, id);
      if (answered) return logRequest(logger, id, req.method, req.url!, answered.status, started, answered.bytes);
      // Express's request log reuses both.
      (res as ServerResponse & { locals?: Record<string, unknown> }).locals = { requestId: id, started };
    }
    app(req, res);
  };

  return {
    app,
    handler,
    env,
    database,
    close: async () => {
      // Running jobs finish (or are released for a retry) and e-mails queued by the last requests
      // are sent (or kept in the dev mailbox) before the database closes.
      await stopJobs();
      await flushMail();
      stopListening();
      await listener?.close();
      await stopEmbeddedListener?.().catch(() => {});
      await stopBackups?.();
      signedInPages.forgetAll();
      setSessionCacheEnabled(false);
      flushLogs();
      setDatabase(undefined);
      await database.close();
    },
  };
}

/** Which build of React and Express serves: "production" everywhere but `npm run dev`. */
function runtime(): "production" | "development" {
  return process.env.NODE_ENV === "production" ? "production" : "development";
}

/** The build's client/ folder: beside the server/ folder this bundle (or its chunk) lives in. */
function findClientDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = path.join(dir, "client");
    if (fs.existsSync(path.join(candidate, "assets"))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error("Cannot find the client build (client/assets) next to the server build");
}

/** The client build's files outside assets/, as URL paths (`/favicon.ico`). */
function listPublicFiles(clientDir: string): Set<string> {
  const files = new Set<string>();
  for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (relative[0] === "assets") continue;
    files.add(`/${relative.map(encodeURIComponent).join("/")}`);
  }
  return files;
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "download"
  );
}

function demoInstaller(productName: string): Buffer {
  return createZip([
    {
      name: "README.txt",
      content:
        `${productName} demo download\r\n\r\n` +
        `This archive is what the site serves while DOWNLOAD_URL is not configured.\r\n` +
        `Set DOWNLOAD_URL to the address of the real installer archive.\r\n`,
    },
  ]);
}

function nonce(_req: Request, res: Response, next: NextFunction): void {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
}

function securityHeaders(env: Env, dev: boolean): express.RequestHandler {
  const paddle = env.PAYMENT_PROVIDER === "paddle";
  const video = new URL(env.TUTORIAL_VIDEO_URL).origin;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'", ...oauthFormOrigins(env)],
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`,
          ...(paddle ? ["https://cdn.paddle.com"] : []),
        ],
        styleSrc: ["'self'", "'unsafe-inline'", ...(paddle ? ["https://cdn.paddle.com"] : [])],
        imgSrc: ["'self'", "data:", ...(paddle ? ["https://cdn.paddle.com"] : [])],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", ...(dev ? ["ws:", "wss:"] : []), ...(paddle ? ["https://*.paddle.com"] : [])],
        frameSrc: [video, ...(paddle ? ["https://*.paddle.com"] : [])],
        ...(env.embedded ? {} : { upgradeInsecureRequests: [] }),
      },
    },
    strictTransportSecurity: env.embedded ? false : { maxAge: 63072000, includeSubDomains: true },
    // helmet's default (no-referrer) makes browsers send `Origin: null` on native form posts,
    // which React Router refuses: forms submitted before the scripts load would fail. This policy
    // still sends only the origin to other sites.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
}
