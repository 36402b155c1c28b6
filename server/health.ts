import type express from "express";
import type { Caches } from "../app/server/cache/caches.server";
import type { DatabaseHandle } from "../app/server/db/client.server";
import type { Env } from "../app/server/env.server";
import { jobsStatus } from "../app/server/jobs/jobs.server";
import { mailerHealth } from "../app/server/mail/mailer-health.server";
import { paymentsLabel } from "../app/server/payments-label.server";

export interface Readiness {
  ready: boolean;
  /** The parts an instance needs to take traffic, and the mailer (reported, never required: decision 0042). */
  parts: { database: boolean; jobs: boolean; listener: boolean; mailer: boolean };
  body: Record<string, unknown>;
}

/**
 * Whether this instance can take traffic: the database answers, the job queue runs, and (PostgreSQL)
 * the LISTEN connection other instances' changes arrive on is up. The mailer is reported (SMTP
 * handshake, or the dev mailbox) but an SMTP outage does not make the instance unready: every
 * instance shares it, and taking them all out of the load balancer would not bring mail back.
 */
export async function readiness(
  env: Env,
  database: DatabaseHandle,
  caches: Pick<Caches, "listener">,
): Promise<Readiness> {
  const about = {
    database: database.engine,
    mode: env.embedded ? "embedded" : "production",
    runtime: runtime(),
    payments: paymentsLabel(env),
  };
  const listener = caches.listener();
  const mailer = (await mailerHealth()).status;
  const reported = { listener, mailer };
  const parts = { database: false, jobs: false, listener: listener !== "down", mailer: mailer !== "down" };
  try {
    await database.ping();
    parts.database = true;
    const { ok, queued, failed } = await jobsStatus();
    parts.jobs = ok;
    const ready = ok && parts.listener;
    const body = { status: ready ? "ready" : "unavailable", ...about, jobs: { ok, queued, failed }, ...reported };
    return { ready, parts, body };
  } catch {
    return { ready: false, parts, body: { status: "unavailable", ...about, ...reported } };
  }
}

/**
 * /healthz: the process answers; /readyz: the database, the jobs and the change listener too (503 when
 * not), and 503 at once when the process is shutting down (`draining`).
 */
export function addHealthRoutes(
  app: express.Express,
  env: Env,
  database: DatabaseHandle,
  caches: Pick<Caches, "listener">,
  draining: () => boolean,
): void {
  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    if (draining()) {
      res.set("Cache-Control", "no-store").status(503).json({ status: "shutting down" });
      return;
    }
    const { ready, body } = await readiness(env, database, caches);
    res
      .set("Cache-Control", "no-store")
      .status(ready ? 200 : 503)
      .json(body);
  });
}

/** Which build of React and Express serves: "production" everywhere but `npm run dev`. */
function runtime(): "production" | "development" {
  return process.env.NODE_ENV === "production" ? "production" : "development";
}
