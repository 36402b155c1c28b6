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
 * Extend is offered (and accepted by the server) for a paid license that is not revoked, not
 * refunded or waiting for a refund: not a trial (it turns into a plan by buying one) and not a
 * free tester license (an admin gives it and its days; paying to extend it makes no sense:
 * decision 0057). Paid plans may be extended, also after they expired (the extension then starts today).
 */
export function canExtendLicense(license: Pick<LicenseFacts, "status" | "refunded" | "is_trial" | "license_type">) {
  if (license.status !== "active" || license.refunded) return false;
  return !license.is_trial && license.license_type !== "trial" && license.license_type !== "tester";
}

/** An expired license or ended trial: its key activates nothing until it is extended or a plan bought. */
export function hasEnded(license: SummaryFacts, now: Date): boolean {
  const kind = summarizeLicense(license, now).kind;
  return kind === "expired" || kind === "trial-expired";
}

/**
 * The key can be copied while it works: not for a revoked license (refunded ones hide it), nor
 * for an ended one, whose key no longer activates the tool (decision 0057).
 */
export function canCopyKey(license: SummaryFacts, now: Date): boolean {
  const kind = summarizeLicense(license, now).kind;
  return kind !== "revoked" && kind !== "refunded" && kind !== "refund-requested" && !hasEnded(license, now);
}

/**
 * What an ended license's card offers instead of what no longer works (no Copy, no offline data
 * to set, no "open the tool" hint): Extend where the license may be extended, otherwise buying a
 * plan (an ended trial, an ended tester license). Null for a license that has not ended.
 */
export function endedOffer(
  license: SummaryFacts & Pick<LicenseFacts, "status" | "refunded" | "is_trial" | "license_type">,
  now: Date,
): { next: "extend" | "buy"; line: string } | null {
  if (!hasEnded(license, now)) return null;
  if (canExtendLicense(license))
    return { next: "extend", line: "This license has ended and its key no longer works. Extend it to use it again." };
  return {
    next: "buy",
    line:
      summarizeLicense(license, now).kind === "trial-expired"
        ? "This trial has ended and its key no longer works. Buy a plan to keep using the tool."
        : "This license has ended and its key no longer works. Buy a plan to keep using the tool.",
  };
}

/**
 * The next moment the clock alone changes what a license card shows (its badge, line, group, the
 * Copy and Request Refund buttons, the payment notice): a trial's end, the end date, a past-due
 * grace period's end, the refund window's end or a floating lease's end (its "N of M floating leases
 * in use", decision 0069), whichever comes first after `now`; null when no such moment is ahead. A
 * page showing these licenses may be reused until then (app/server/cache/signed-in-page-cache.server.ts).
 */
export function nextCardChange(
  licenses: (SummaryFacts & { machines?: { floating?: { leases: { expires_at: string }[] } } })[],
  now: Date,
): Date | null {
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
    for (const lease of license.machines?.floating?.leases ?? []) consider(lease.expires_at);
  }
  return next === null ? null : new Date(next);
}

/** The reason a seat license is revoked when its member leaves or is removed from the team (stored, shown to support). */
export const REMOVED_FROM_TEAM = "removed from team";

/**
 * What a removed member is told, on their card and in the removal e-mail alike (decision 0057): who
 * to ask is the team's owner, not support.
 */
export const removedFromTeamLine = (team: string) =>
  `${removedFromTeamAsk(team)} The seat license it provided was revoked ("${REMOVED_FROM_TEAM}") and its key no longer works.`;

/** Its first sentence, the card's note: the card's status line already says the license is revoked and no longer works. */
export const removedFromTeamAsk = (team: string) =>
  `You were removed from ${team}; ask its owner if you think this is a mistake.`;

/**
 * The note on a revoked card, whom to ask (its status line says it is revoked): a seat whose member
 * was removed from the team names the team and its owner (as the removal e-mail does); any other
 * revocation points to support.
 */
export function revokedNote(
  license: {
    revoked_reason?: string | null;
    team?: { name: string; role: "billing" | "seat" } | null;
  },
  supportEmail?: string,
): string {
  if (license.revoked_reason === REMOVED_FROM_TEAM && license.team?.role === "seat")
    return removedFromTeamAsk(license.team.name);
  return `Contact support${supportEmail ? ` at ${supportEmail}` : ""} if you think this is a mistake.`;
}
