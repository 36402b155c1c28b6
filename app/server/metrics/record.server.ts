import {
  cacheLookups,
  dbPool,
  httpDuration,
  httpRequests,
  jobs,
  jobsOldestQueued,
  licenseValidations,
  mails,
  readiness,
  registry,
  webhookEvents,
} from "./metrics.server";

// What services call to count what they do (metrics.server.ts defines the metrics). Each is a few
// increments in memory: cheap enough to run whether or not anyone scrapes /metrics.

export type CacheName = "page" | "signed_in";
export type WebhookOutcome = "applied" | "duplicate" | "ignored" | "rejected" | "failed";

/** One answered request: `route` is its pattern (`/licenses/:id`), never the raw address. */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  const statusText = String(status);
  httpRequests.inc({ method, route, status: statusText });
  httpDuration.observe({ method, route, status_class: `${statusText[0]}xx` }, seconds);
}

export function recordCacheLookup(cache: CacheName, hit: boolean): void {
  cacheLookups.inc({ cache, result: hit ? "hit" : "miss" });
}

/** A webhook delivery's outcome; `type` is the event type when the delivery was signed and parsed. */
export function recordWebhook(type: string, outcome: WebhookOutcome): void {
  webhookEvents.inc({ type, outcome });
}

export function recordMail(sent: boolean): void {
  mails.inc({ outcome: sent ? "sent" : "failed" });
}

export function recordLicenseValidation(code: string): void {
  licenseValidations.inc({ code });
}

export interface JobKindCounts {
  kind: string;
  queued: number;
  active: number;
  failed: number;
  /** Seconds the oldest due, unstarted job has waited (0: none). */
  oldestQueuedSeconds: number;
}

/** The queue's counts per kind, read at a scrape (kinds with nothing read as 0). */
export function recordJobCounts(counts: JobKindCounts[]): void {
  jobs.reset();
  jobsOldestQueued.reset();
  for (const { kind, queued, active, failed, oldestQueuedSeconds } of counts) {
    jobs.set({ kind, state: "queued" }, queued);
    jobs.set({ kind, state: "active" }, active);
    jobs.set({ kind, state: "failed" }, failed);
    jobsOldestQueued.set({ kind }, oldestQueuedSeconds);
  }
}

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export function recordPoolUse(pool: PoolUse): void {
  for (const [state, value] of Object.entries(pool)) dbPool.set({ state }, value);
}

export function recordReadiness(parts: Record<string, boolean>): void {
  for (const [part, ready] of Object.entries(parts)) readiness.set({ part }, ready ? 1 : 0);
}

/** The registry in Prometheus's text format, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
