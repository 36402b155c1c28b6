import { and, eq, gt, isNotNull, lte, or } from "drizzle-orm";
import { licenseFacts } from "~/domain/license-status";
import { licenseState } from "~/domain/license-state";
import { PAST_DUE_GRACE_DAYS } from "~/domain/past-due";
import { getDb } from "../db/db.server";
import { licenses } from "../db/schema";
import { licenseEvent, recordEvent } from "./events.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const LOOK_BACK_MS = 7 * DAY_MS;
/** A past-due license expires when its grace period runs out: its end date is that much further back. */
const END_DATE_LOOK_BACK_MS = LOOK_BACK_MS + PAST_DUE_GRACE_DAYS * DAY_MS;

/**
 * license.expired (decision 0044): a license expires by the clock, not by a write, so the hourly
 * housekeeping finds the licenses whose state became expired (or trial expired) in the last 7 days
 * (a past-due one at the end of its grace period, 14 days after its end date) and records the event
 * once per license and end date (its key). Returns how many it recorded.
 */
export async function recordExpiredLicenses(now: Date = new Date()): Promise<number> {
  const since = new Date(now.getTime() - LOOK_BACK_MS);
  const endedSince = new Date(now.getTime() - END_DATE_LOOK_BACK_MS);
  const candidates = await getDb()
    .select()
    .from(licenses)
    .where(
      and(
        eq(licenses.status, "active"),
        eq(licenses.refunded, false),
        or(
          and(gt(licenses.end_date, since), lte(licenses.end_date, now)),
          // Past due: it works until its grace period ends, so it turned expired up to 14 days after its end date.
          and(isNotNull(licenses.past_due_since), gt(licenses.end_date, endedSince), lte(licenses.end_date, now)),
          and(gt(licenses.trial_ends_at, since), lte(licenses.trial_ends_at, now)),
        ),
      ),
    );
  let recorded = 0;
  for (const license of candidates) {
    const state = licenseState(licenseFacts(license), now);
    if ((state.state !== "expired" && state.state !== "trial-expired") || !state.date) continue;
    const expiredAt = state.date;
    const id = await getDb().transaction((tx) =>
      recordEvent(
        tx,
        "license.expired",
        licenseEvent(license, { expired_at: expiredAt.toISOString(), trial: state.state === "trial-expired" }),
        { key: `license.expired:${license.id}:${expiredAt.toISOString()}`, occurredAt: now },
      ),
    );
    if (id) recorded++;
  }
  return recorded;
}
