import type { LicenseFacts } from "./license-status";
import { licenseState, type BadgeTone, type LicenseKind, type LicenseStateFacts } from "./license-state";
import { graceEndsAt } from "./past-due";

/**
 * What a license card says about its state (docs/decisions/0024): one badge and one status line
 * that never contradict each other, whether the card sits among the active or the inactive
 * licenses, and which actions it offers. The wording comes from the one state function
 * (license-state.ts), which the admin, the desktop API and the e-mails read too.
 */

export type { BadgeTone };

export interface LicenseSummary {
  /** The display status (docs/product.md, "License states and types"), or the refund state that replaces it. */
  kind: LicenseKind;
  badge: { label: string; tone: BadgeTone };
  /** The one line under the title: the state and its date. */
  line: string;
}

type SummaryFacts = LicenseStateFacts;

export function summarizeLicense(license: SummaryFacts, now: Date): LicenseSummary {
  const { kind, badge, line } = licenseState(license, now);
  return { kind, badge, line };
}

/** Active licenses (and one waiting for its refund) come first; the rest sit under "Inactive licenses". */
export function isInactiveLicense(license: SummaryFacts, now: Date): boolean {
  const kind = summarizeLicense(license, now).kind;
  return kind === "revoked" || kind === "refunded" || kind === "expired" || kind === "trial-expired";
}

/** Splits licenses into active and inactive, each keeping its order (newest first). */
export function groupLicenses<T extends SummaryFacts>(list: T[], now: Date): { active: T[]; inactive: T[] } {
  const active: T[] = [];
  const inactive: T[] = [];
  for (const license of list) (isInactiveLicense(license, now) ? inactive : active).push(license);
  return { active, inactive };
}

/**
 * Extend is offered (and accepted by the server) for a license that is not revoked, not refunded
 * or waiting for a refund, and not a trial: a trial turns into a plan by buying one. Paid plans and
 * tester licenses may be extended, also after they expired (the extension then starts today).
 */
export function canExtendLicense(license: Pick<LicenseFacts, "status" | "refunded" | "is_trial" | "license_type">) {
  if (license.status !== "active" || license.refunded) return false;
  return !license.is_trial && license.license_type !== "trial";
}

/** The key can be copied while it works: not for a revoked license (refunded ones hide it). */
export function canCopyKey(license: SummaryFacts, now: Date): boolean {
  const kind = summarizeLicense(license, now).kind;
  return kind !== "revoked" && kind !== "refunded" && kind !== "refund-requested";
}

/**
 * The next moment the clock alone changes what a license card shows (its badge, line, group, the
 * Copy and Request Refund buttons, the payment notice): a trial's end, the end date, a past-due
 * grace period's end or the refund window's end, whichever comes first after `now`; null when no
 * such moment is ahead. A page showing these licenses may be reused until then
 * (app/server/cache/signed-in-page-cache.server.ts).
 */
export function nextCardChange(licenses: SummaryFacts[], now: Date): Date | null {
  let next: number | null = null;
  const consider = (value: Date | string | null | undefined) => {
    if (value === null || value === undefined) return;
    const time = (value instanceof Date ? value : new Date(value)).getTime();
    if (time > now.getTime() && (next === null || time < next)) next = time;
  };
  for (const license of licenses) {
    consider(license.trial_ends_at);
    consider(license.end_date);
    consider(license.refund_eligible_until);
    consider(graceEndsAt(license));
  }
  return next === null ? null : new Date(next);
}
