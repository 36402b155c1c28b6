/**
 * Floating leases (decision 0069): a license whose plan allows floating use (the plan table's
 * `floatingLeases`) lends a lease to a machine that comes and goes (a build server, a virtual
 * desktop) for a time to live; a lease not heartbeated within it is free again. Leases are counted
 * apart from the machine limit and the self-service deactivations. Pure: the desktop API, the
 * licenses page and the admin's user page share these rules.
 */

/**
 * A lease's time to live, in minutes: 1 minute to a day; 20 when not sent (as JetBrains frees an unused
 * floating license after 20 minutes).
 */
export const LEASE_TTL_MIN_MINUTES = 1;
export const LEASE_TTL_MAX_MINUTES = 1440;
export const LEASE_TTL_DEFAULT_MINUTES = 20;

export const LEASE_TTL_MESSAGE = `ttl_minutes must be a whole number of minutes from ${LEASE_TTL_MIN_MINUTES} to ${LEASE_TTL_MAX_MINUTES}.`;

/**
 * The time to live a request asked for: not sent (undefined or null) is `fallback`; anything but a
 * whole number within the bounds is refused (never clamped: a tool asking for a week has a bug to see).
 */
export function readLeaseTtl(
  value: unknown,
  fallback = LEASE_TTL_DEFAULT_MINUTES,
): { ok: true; minutes: number } | { ok: false } {
  if (value === undefined || value === null) return { ok: true, minutes: fallback };
  if (typeof value !== "number" || !Number.isInteger(value)) return { ok: false };
  if (value < LEASE_TTL_MIN_MINUTES || value > LEASE_TTL_MAX_MINUTES) return { ok: false };
  return { ok: true, minutes: value };
}

/** When a lease taken or heartbeated at `now` for `minutes` ends. */
export function leaseEndsAt(now: Date, minutes: number): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

/** Whether a lease counts now: not returned and not past its end (a returned lease ends when it is returned). */
export function isLeaseLive(lease: { expires_at: Date | string }, now: Date): boolean {
  return new Date(lease.expires_at).getTime() > now.getTime();
}

/**
 * Whether a machine may take a lease, given the fingerprint hashes of the license's live leases:
 * "no-floating" when the plan has none; "renew" when this machine holds one already (it is extended,
 * no second one is used); "full" when every lease is taken; else "take".
 */
export function leaseDecision(
  liveFingerprints: readonly string[],
  fingerprint: string,
  limit: number,
): "no-floating" | "renew" | "full" | "take" {
  if (limit <= 0) return "no-floating";
  if (liveFingerprints.includes(fingerprint)) return "renew";
  return liveFingerprints.length >= limit ? "full" : "take";
}

/** The earliest end among live leases, after `now`: when one is free again (null when none is live). */
export function nextLeaseEnd(leases: readonly { expires_at: Date | string }[], now: Date): Date | null {
  let next: number | null = null;
  for (const lease of leases) {
    const time = new Date(lease.expires_at).getTime();
    if (time > now.getTime() && (next === null || time < next)) next = time;
  }
  return next === null ? null : new Date(next);
}

/** A live lease as the licenses page and the admin's user page show it (dates as ISO strings). */
export interface LeaseView {
  id: string;
  /** The name the tool sent (the build agent's, the desktop's), or null. */
  name: string | null;
  taken_at: string;
  expires_at: string;
}

/** A license's floating leases on its card: the limit and the live ones (only for plans with floating use). */
export interface LicenseLeasesView {
  limit: number;
  leases: LeaseView[];
}

export const LEASE_TEXTS = {
  /** The license card's line: "1 of 3 floating leases in use". */
  inUse: (inUse: number, limit: number) => `${inUse} of ${limit} floating lease${limit === 1 ? "" : "s"} in use`,
  unnamed: "Unnamed machine",
  /** A live lease on the admin's user page: when it ends unless heartbeated. */
  until: (when: string) => `held until ${when} unless renewed`,
};
