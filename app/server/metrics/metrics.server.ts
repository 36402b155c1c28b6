import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The site's metrics (docs/operations.md): one registry, every metric defined here. Services record
 * through the small functions of record.server.ts and never import prom-client; the server exposes
 * the registry at /metrics only when configured (server/metrics.ts, decision 0042). Label values are
 * bounded: route patterns, never raw addresses; codes, kinds and outcomes from fixed lists.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "forgekit_process_" });

export const httpRequests = new Counter({
  name: "forgekit_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status code.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: "forgekit_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by method, route pattern and status class.",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const cacheLookups = new Counter({
  name: "forgekit_cache_lookups_total",
  help: "Page lookups in the in-memory caches: cache is page (anonymous) or signed_in; result is hit or miss.",
  labelNames: ["cache", "result"] as const,
  registers: [registry],
});

export const webhookEvents = new Counter({
  name: "forgekit_webhook_events_total",
  help: "Payment provider webhook deliveries, by event type and outcome (applied, duplicate, ignored, rejected, failed).",
  labelNames: ["type", "outcome"] as const,
  registers: [registry],
});

export const jobs = new Gauge({
  name: "forgekit_jobs",
  help: "Background jobs by kind and state (queued, active, failed), read from the queue at each scrape.",
  labelNames: ["kind", "state"] as const,
  registers: [registry],
});

export const jobsOldestQueued = new Gauge({
  name: "forgekit_jobs_oldest_queued_seconds",
  help: "Age of the oldest job due to run and not yet started, by kind (0 when none waits).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

export const mails = new Counter({
  name: "forgekit_mails_total",
  help: "E-mails handed to the mailer, by outcome (sent or failed).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const licenseValidations = new Counter({
  name: "forgekit_license_validations_total",
  help: "Desktop API license validations, by answer code.",
  labelNames: ["code"] as const,
  registers: [registry],
});

export const dbPool = new Gauge({
  name: "forgekit_db_pool_connections",
  help: "The app's database pool: connections by state (total, idle, waiting requests, max).",
  labelNames: ["state"] as const,
  registers: [registry],
});

export const readiness = new Gauge({
  name: "forgekit_ready",
  help: "1 when the part is ready, 0 when not, as /readyz last found it (database, jobs, listener, mailer).",
  labelNames: ["part"] as const,
  registers: [registry],
});
