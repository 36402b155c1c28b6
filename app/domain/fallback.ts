/**
 * Perpetual fallback (decision 0066, JetBrains' rule): after 12 paid months without a gap on one
 * license, the license keeps the newest stable release published before the start of that 12-month
 * run when its subscription ends. A run longer than 12 months counts its last 12 months (the
 * fallback moves forward as the customer keeps paying, as JetBrains' does). Pure: the license's paid periods and the release list in, the
 * fallback out.
 */

import { addMonths } from "~/domain/extension";
import { licenseStateCode, type LicenseStateFacts } from "~/domain/license-state";
import { accessEndsAt, type PastDueFacts } from "~/domain/past-due";
import { compareVersions, parseVersion } from "~/domain/version";

/** The months of paid time without a gap that earn a fallback. */
export const FALLBACK_MONTHS = 12;

/** A payment's paid period and whether a refund or chargeback took it back. */
export interface PaidPeriod {
  start: Date;
  end: Date;
  /** An approved refund (any amount) or a chargeback the customer won: the period earns nothing. */
  voided: boolean;
}

/** What a payment row says about its refund and dispute (the payments table's columns). */
export interface PaymentReversal {
  refund_status: string | null;
  dispute_status: string | null;
}

/**
 * Whether a payment no longer earns paid time: a refund approved by the provider (a partial one too:
 * the customer asked for money back for that period) or a chargeback the customer won. A pending,
 * rejected or reversed refund and a dispute warning or a dispute the provider won back change nothing.
 */
export function isReversed(payment: PaymentReversal): boolean {
  return payment.refund_status === "approved" || payment.dispute_status === "charged_back";
}

export interface FallbackRelease {
  version: string;
  channel: string;
  published_at: Date | null;
  yanked_at: Date | null;
}

/** A run of paid periods without a gap. */
export interface PaidRun {
  start: Date;
  end: Date;
}

export interface Fallback {
  /** The version the license keeps after its subscription ends. */
  version: string;
  /** The 12 paid months that earned it (the last 12 months of a longer run). */
  run: PaidRun;
}

/**
 * The runs of paid time without a gap, oldest first: voided periods are left out (a refunded month
 * in the middle splits the run), and a period that starts later than the run's end, by a day or by a
 * millisecond, starts a new run. Overlapping periods (a plan switch billed mid-period) join the run.
 */
export function paidRuns(periods: readonly PaidPeriod[]): PaidRun[] {
  const paid = periods
    .filter((period) => !period.voided && period.end.getTime() > period.start.getTime())
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  const runs: PaidRun[] = [];
  for (const period of paid) {
    const last = runs.at(-1);
    if (last && period.start.getTime() <= last.end.getTime()) {
      if (period.end.getTime() > last.end.getTime()) last.end = new Date(period.end.getTime());
    } else runs.push({ start: new Date(period.start.getTime()), end: new Date(period.end.getTime()) });
  }
  return runs;
}

/** Whether a run covers 12 calendar months (UTC) from its start. */
export function earnsFallback(run: PaidRun): boolean {
  return run.end.getTime() >= addMonths(run.start, FALLBACK_MONTHS).getTime();
}

/**
 * The newest stable release (semantic-version order) published before the moment and not yanked;
 * versions that do not parse are left out.
 */
export function newestStableBefore(releases: readonly FallbackRelease[], before: Date): FallbackRelease | null {
  let best: { release: FallbackRelease; version: NonNullable<ReturnType<typeof parseVersion>> } | null = null;
  for (const release of releases) {
    if (release.channel !== "stable" || release.yanked_at || !release.published_at) continue;
    if (release.published_at.getTime() >= before.getTime()) continue;
    const version = parseVersion(release.version);
    if (!version || version.pre.length > 0) continue;
    if (!best || compareVersions(version, best.version) > 0) best = { release, version };
  }
  return best?.release ?? null;
}

/**
 * The license's fallback: the newest stable release published before the start of the last 12 months
 * of a run that reached 12 paid months; among several such runs, the one whose fallback is the
 * newest version (a customer never loses what an earlier run earned; with releases only added over
 * time, that is the latest such run). Null when no run reached 12 months or no stable release was
 * published before the start of any that did.
 */
export function fallbackFor(periods: readonly PaidPeriod[], releases: readonly FallbackRelease[]): Fallback | null {
  let best: { fallback: Fallback; version: NonNullable<ReturnType<typeof parseVersion>> } | null = null;
  for (const run of paidRuns(periods)) {
    if (!earnsFallback(run)) continue;
    const back = addMonths(run.end, -FALLBACK_MONTHS);
    const window = { start: back.getTime() > run.start.getTime() ? back : run.start, end: run.end };
    const release = newestStableBefore(releases, window.start);
    const version = release && parseVersion(release.version);
    if (!release || !version) continue;
    if (!best || compareVersions(version, best.version) > 0)
      best = { fallback: { version: release.version, run: window }, version };
  }
  return best?.fallback ?? null;
}

/** Whether a release is within the fallback (the same version or older): what an ended license may run. */
export function withinFallback(version: string, fallbackVersion: string): boolean {
  const release = parseVersion(version);
  const fallback = parseVersion(fallbackVersion);
  return release !== null && fallback !== null && compareVersions(release, fallback) <= 0;
}

/** What the license card, /billing and the expiry e-mail say the customer keeps. */
export function fallbackSentence(fallbackVersion: string, ended: boolean): string {
  return ended
    ? `Your subscription has ended; you keep ForgeKit up to version ${fallbackVersion}.`
    : `You keep ForgeKit up to version ${fallbackVersion} after your subscription ends.`;
}

/** What the desktop API's answer and license file say of a license's fallback (decision 0070). */
export interface FallbackFields {
  /** The version the license keeps once its subscription ends; null: none earned. */
  fallback_version: string | null;
  /** With a fallback: until when the license receives every new version (its paid time, a past-due grace included). */
  updates_until: string | null;
}

export function fallbackFields(license: PastDueFacts & { fallback_version: string | null }): FallbackFields {
  if (!license.fallback_version) return { fallback_version: null, updates_until: null };
  return { fallback_version: license.fallback_version, updates_until: accessEndsAt(license).toISOString() };
}

/**
 * What the license card, /billing and the expiry e-mail say a license keeps (decision 0070): the
 * sentence while the license works and once it has expired; null when it keeps nothing (no fallback,
 * or revoked, refunded, a trial: a state in which the fallback does not apply).
 */
export function licenseFallbackSentence(
  license: LicenseStateFacts & { fallback_version?: string | null },
  now: Date,
): string | null {
  if (!license.fallback_version) return null;
  const code = licenseStateCode(license, now);
  if (code === "VALID") return fallbackSentence(license.fallback_version, false);
  if (code === "EXPIRED") return fallbackSentence(license.fallback_version, true);
  return null;
}
