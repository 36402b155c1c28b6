import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type express from "express";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { DatabaseHandle } from "../app/server/db/client.server";
import type { Env } from "../app/server/env.server";
import { jobCountsByKind } from "../app/server/jobs/jobs.server";
import {
  metricsText,
  recordJobCounts,
  recordPoolUse,
  recordReadiness,
  recordRequest,
} from "../app/server/metrics/record.server";
import { routeTree } from "./route-params";

/**
 * /metrics (Prometheus text format, docs/operations.md, decision 0042): never public. With
 * METRICS_TOKEN, on the site's port for `Authorization: Bearer <token>` only (401 otherwise); with
 * METRICS_PORT, on a listener of its own bound to 127.0.0.1; with neither, it does not exist (404
 * like any unknown page) and requests are not timed.
 */
export interface Metrics {
  /** Times a request the caches answered before Express. */
  answered: (method: string | undefined, path: string, status: number, started: bigint) => void;
  /** Express: times every request it answers, by route pattern. */
  timing: express.RequestHandler;
  /** Stops the local listener, if any. */
  close: () => Promise<void>;
  /** The local listener's port (METRICS_PORT), if any. */
  port?: number;
}

/** What is read afresh at each scrape: the queue's counts, the pool, readiness. */
export type ScrapeSources = { database: DatabaseHandle; readiness: () => Promise<Record<string, boolean>> };

/** A request's route pattern (`/licenses/:id`, `/api/v1/licenses/validate`): bounded label values. */
function routeLabeler(build: () => Promise<ServerBuild>) {
  const trees = new WeakMap<ServerBuild, RouteObject[]>();
  return async (req: Request): Promise<string> => {
    const path = req.originalUrl.split("?")[0] ?? "/";
    if (req.route && typeof req.route.path === "string") return `${req.baseUrl}${req.route.path}`;
    if (path.startsWith("/api/v1/")) return "/api/v1/*";
    if (path.startsWith("/assets/")) return "/assets/*";
    const current = await build();
    let tree = trees.get(current);
    if (!tree) trees.set(current, (tree = routeTree(current).tree as RouteObject[]));
    const data = path.endsWith(".data");
    const matches = matchRoutes(tree, data ? path.slice(0, -".data".length) || "/" : path) ?? [];
    const pattern = `/${matches
      .map((m) => m.route.path)
      .filter(Boolean)
      .join("/")}`.replace(/\/+/g, "/");
    return data ? `${pattern}.data` : pattern;
  };
}

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** The metrics' answer, gauges read first. */
async function scrape(sources: ScrapeSources, logger: Logger, res: http.ServerResponse): Promise<void> {
  try {
    recordJobCounts(await jobCountsByKind());
    const pool = sources.database.poolUse?.();
    if (pool) recordPoolUse(pool);
    recordReadiness(await sources.readiness());
    const { contentType, body } = await metricsText();
    res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(body);
  } catch (error) {
    logger.error({ err: error }, "metrics could not be read");
    res.writeHead(500, { "Content-Type": "text/plain" }).end("The metrics could not be read.");
  }
}

/** Whether the request carries the bearer token (compared in constant time, whatever its length). */
function authorized(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "";
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/** The local listener: GET /metrics on 127.0.0.1:METRICS_PORT, 404 for everything else. */
function listenLocally(port: number, sources: ScrapeSources, logger: Logger): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url?.split("?")[0] !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found: there is nothing at this address.");
      return;
    }
    void scrape(sources, logger, res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/** Sets up /metrics as configured; null when neither METRICS_TOKEN nor METRICS_PORT is set. */
export async function setUpMetrics(
  app: express.Express,
  env: Env,
  build: () => Promise<ServerBuild>,
  sources: ScrapeSources,
  logger: Logger,
): Promise<Metrics | null> {
  const token = env.METRICS_TOKEN;
  if (!token && env.METRICS_PORT === undefined) return null;
  if (token) {
    app.get("/metrics", (req: Request, res: Response) => {
      if (!authorized(req.headers.authorization, token)) {
        res.status(401).set({ "WWW-Authenticate": "Bearer", "Cache-Control": "no-store" });
        res.type("text/plain").send("Unauthorized: /metrics needs Authorization: Bearer <METRICS_TOKEN>.");
        return;
      }
      void scrape(sources, logger, res);
    });
  }
  const local = env.METRICS_PORT === undefined ? null : await listenLocally(env.METRICS_PORT, sources, logger);
  const label = routeLabeler(build);
  return {
    answered: (method, path, status, started) => {
      const route = path.split("?")[0] ?? "/";
      recordRequest(method ?? "GET", route, status, seconds(started));
    },
    timing: (req, res, next) => {
      const started = (res.locals.started as bigint | undefined) ?? process.hrtime.bigint();
      res.on("finish", () => {
        void label(req)
          .catch(() => "unknown")
          .then((route) => recordRequest(req.method, route, res.statusCode, seconds(started)));
      });
      next();
    },
    close: () => new Promise<void>((resolve) => (local ? local.close(() => resolve()) : resolve())),
    port: local ? (local.address() as AddressInfo).port : undefined,
  };
}
