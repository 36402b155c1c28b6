import { scanHour } from "~/domain/customer-mail";
import type { HourlyJobKind } from "./job-payloads.server";
import { enqueue } from "./jobs.server";

/**
 * A job that runs every hour without cron or timers: each run first queues the next hour's run
 * (startAfter, keyed by the hour), and every app server or worker queues the current and next
 * hour's runs when it starts. The keys (job_keys) make all of that idempotent, so several servers
 * share one run per hour, on PostgreSQL and on PGlite alike (the pattern of the reminder scan).
 */

const HOUR = 60 * 60 * 1000;

/** The idempotency key of `kind`'s run for the hour starting at `hour`. */
export const hourlyKey = (kind: string, hour: Date) => `${kind}:${hour.toISOString()}`;

/** Queues the run of the hour `now` falls in (runs at once) and of the next hour (runs then). */
export async function scheduleHourly(kind: HourlyJobKind, now: Date = new Date()): Promise<void> {
  const hour = scanHour(now);
  const next = new Date(hour.getTime() + HOUR);
  await enqueue(kind, { hour: hour.toISOString() }, { key: hourlyKey(kind, hour) });
  await enqueue(kind, { hour: next.toISOString() }, { key: hourlyKey(kind, next), startAfter: next });
}

/** From inside the run for `hour`: queues the next run (the next hour, or the coming one if that has passed). */
export async function queueNextHour(kind: HourlyJobKind, hour: string, now: Date = new Date()): Promise<void> {
  const next = new Date(new Date(hour).getTime() + HOUR);
  const later = next > now ? next : new Date(scanHour(now).getTime() + HOUR);
  await enqueue(kind, { hour: later.toISOString() }, { key: hourlyKey(kind, later), startAfter: later });
}
