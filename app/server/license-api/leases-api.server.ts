import type { Lease } from "../db/schema";
import { heartbeatLease, returnLease, takeLease } from "../machines/leases.server";
import { findLicenseByKey } from "./find-license.server";
import { CODE_DETAILS, describeLicense, type LicenseCode, type Validation } from "./validate-license.server";

/**
 * The desktop API's floating leases (decision 0069): `POST /leases`, `POST /leases/{id}/heartbeat`
 * and `DELETE /leases/{id}`, decided here, answered signed by server/api-v1-leases.ts. A lease is lent
 * and extended only while the license is valid by validate's rules; every refusal is a 4xx with its
 * code, and writes nothing.
 */

/** The codes only leases answer, with their status. */
export const LEASE_CODE_STATUS = {
  NO_FLOATING_USE: 403,
  LEASE_LIMIT: 409,
  LEASE_NOT_FOUND: 404,
  LEASE_EXPIRED: 410,
} as const;
export type LeaseCode = keyof typeof LEASE_CODE_STATUS;
export const LEASE_CODES = Object.keys(LEASE_CODE_STATUS) as LeaseCode[];

export const LEASE_CODE_DETAILS: Record<LeaseCode, string> = {
  NO_FLOATING_USE: "The license's plan has no floating leases.",
  LEASE_LIMIT:
    "Every floating lease of the license is in use: one is free again at next_free_at, or when a machine returns its lease.",
  LEASE_NOT_FOUND: "The license has no lease with this id.",
  LEASE_EXPIRED: "The lease has ended (it expired or was returned): take a new one.",
};

/** A lease as the API shows it (the fingerprint never: the site keeps only its hash). */
export interface ApiLease {
  id: string;
  license_id: string;
  name: string | null;
  ttl_minutes: number;
  taken_at: string;
  heartbeat_at: string;
  /** When the lease ends unless heartbeated: from then on it is free for another machine. */
  expires_at: string;
  returned_at: string | null;
}

export function apiLease(lease: Lease): ApiLease {
  return {
    id: lease.id,
    license_id: lease.license_id,
    name: lease.name,
    ttl_minutes: lease.ttl_minutes,
    taken_at: lease.taken_at.toISOString(),
    heartbeat_at: lease.heartbeat_at.toISOString(),
    expires_at: lease.expires_at.toISOString(),
    returned_at: lease.returned_at?.toISOString() ?? null,
  };
}

/** A decided answer: its status and body (signed, with the nonce and issued_at, by the transport). */
export interface LeaseAnswer {
  status: 200 | 403 | 404 | 409 | 410;
  body: Record<string, unknown>;
}

const refused = (code: LeaseCode, extra: Record<string, unknown> = {}): LeaseAnswer => ({
  status: LEASE_CODE_STATUS[code],
  body: { error: LEASE_CODE_DETAILS[code], code, ...extra },
});

/** A license that is not valid (or no license): 409 with its code, as `GET /licenses/file` answers it. */
const licenseRefused = (code: LicenseCode): LeaseAnswer => ({
  status: 409,
  body: { error: `No lease: ${CODE_DETAILS[code]}`, code },
});

/** The license a key names, if it is valid now; else the refusal. */
async function validLicense(key: string, now: Date) {
  const license = await findLicenseByKey(key);
  const answer = describeLicense(license, {}, now);
  if (!license || !answer.valid) return { refusal: licenseRefused(answer.code) } as const;
  return { license, answer } as const;
}

const leased = (answer: Validation, lease: Lease, limit: number, inUse: number): LeaseAnswer => ({
  status: 200,
  body: { ...answer, lease: apiLease(lease), floating_limit: limit, leases_in_use: inUse },
});

/** POST /api/v1/leases: a lease for this machine (its own again, extended, when it holds one). */
export async function takeLeaseByKey(
  key: string,
  machine: { fingerprint: string; name?: string; ttlMinutes: number },
  now = new Date(),
): Promise<LeaseAnswer> {
  const found = await validLicense(key, now);
  if (found.refusal) return found.refusal;
  const result = await takeLease(found.license, machine);
  if (result.outcome === "gone") return licenseRefused("NOT_FOUND");
  if (result.outcome === "no-floating") return refused("NO_FLOATING_USE", { floating_limit: 0 });
  if (result.outcome === "full") {
    return refused("LEASE_LIMIT", {
      floating_limit: result.limit,
      leases_in_use: result.inUse,
      next_free_at: result.nextFreeAt.toISOString(),
    });
  }
  return leased(found.answer, result.lease, result.limit, result.inUse);
}

/** POST /api/v1/leases/{id}/heartbeat: the lease extended by its time to live (or the one sent). */
export async function heartbeatLeaseByKey(
  key: string,
  leaseId: string,
  ttlMinutes: number | undefined,
  now = new Date(),
): Promise<LeaseAnswer> {
  const found = await validLicense(key, now);
  if (found.refusal) return found.refusal;
  const result = await heartbeatLease(found.license, leaseId, ttlMinutes);
  if (result.outcome === "not-found") return refused("LEASE_NOT_FOUND");
  if (result.outcome === "no-floating") return refused("NO_FLOATING_USE", { floating_limit: 0 });
  if (result.outcome === "ended") return refused("LEASE_EXPIRED", { lease: apiLease(result.lease) });
  return leased(found.answer, result.lease, result.limit, result.inUse);
}

/**
 * DELETE /api/v1/leases/{id}: the lease given back, free at once. The license need not be valid (a
 * machine may always give back what it holds); a lease that had ended already is answered 200 with
 * `returned: false`.
 */
export async function returnLeaseByKey(key: string, leaseId: string): Promise<LeaseAnswer> {
  const license = await findLicenseByKey(key);
  if (!license) return licenseRefused("NOT_FOUND");
  const result = await returnLease(license.id, leaseId);
  if (result.outcome === "not-found") return refused("LEASE_NOT_FOUND");
  return { status: 200, body: { returned: result.outcome === "returned", lease: apiLease(result.lease) } };
}
