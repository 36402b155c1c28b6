import { formatMoney } from "./billing";
import { formatDate } from "./format-date";
import { licenseState, type LicenseStateFacts } from "./license-state";
import { TRIAL_REMINDER_DAYS } from "./customer-mail";

/**
 * What on the licenses page needs the customer (decision 0040), read from the one state function
 * (license-state.ts): a failed renewal payment, a trial about to end, a license about to end
 * without renewal. Each asks something of the customer; a refund being processed asks nothing
 * (its card says so), so it is not one (decision 0057). Those licenses come first, in that order, and
 * a summary at the top links to each; every license's compact row names its next date and amount.
 */

export const ATTENTION_KINDS = ["payment-failed", "trial-ending", "expiring"] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** A license that ends within this many days without renewing needs a decision (extend or let go). */
export const EXPIRING_SOON_DAYS = 14;
/** A trial needs a decision this many days before it ends (when the reminder e-mail goes out). */
export const TRIAL_ENDING_DAYS = TRIAL_REMINDER_DAYS;

const DAY = 86_400_000;

const within = (date: Date | null, now: Date, days: number) =>
  date !== null && date.getTime() > now.getTime() && date.getTime() - now.getTime() <= days * DAY;

/** Why a license needs the customer now, or null. */
export function licenseAttention(license: LicenseStateFacts, now: Date): AttentionKind | null {
  const { state, date } = licenseState(license, now);
  switch (state) {
    case "payment-failed":
      return "payment-failed";
    case "trial-active":
    case "trial-converting":
      return within(date, now, TRIAL_ENDING_DAYS) ? "trial-ending" : null;
    case "renewal-cancelled":
    case "active-until":
      return within(date, now, EXPIRING_SOON_DAYS) ? "expiring" : null;
    default:
      return null;
  }
}

/** The summary's sentence for a license that needs the customer. */
export function attentionText(kind: AttentionKind, license: LicenseStateFacts, now: Date): string {
  const { state, date, nextChargeCents, nextChargeCurrency } = licenseState(license, now);
  const day = date ? formatDate(date) : "";
  switch (kind) {
    case "payment-failed":
      return `Payment failed: update the payment method before ${day} to keep it working.`;
    case "trial-ending":
      if (nextChargeCents !== null)
        return `Trial ends ${day}: the first charge of ${formatMoney(nextChargeCents, nextChargeCurrency)} follows unless you cancel.`;
      // Converting in a currency whose amount no payment has shown yet (decision 0072).
      return state === "trial-converting"
        ? `Trial ends ${day}: the first charge follows unless you cancel.`
        : `Trial ends ${day}: choose a plan to keep working.`;
    case "expiring":
      // A member's seat is extended or renewed by the team's owner, not by the member.
      return license.team_role === "seat"
        ? `Ends ${day}: the team's subscription will not renew. Ask the team's owner to keep it.`
        : `Ends ${day} without renewal: extend it to keep working.`;
  }
}

export interface AttentionItem<T> {
  license: T;
  kind: AttentionKind;
  text: string;
}

/**
 * The licenses that need the customer, most urgent kind first (ATTENTION_KINDS order), then the
 * sooner date; and the rest by the next date that matters to them (a trial's end, a renewal, an
 * end date: the state's date), soonest first, those without one ahead last, each keeping the order given
 * (newest first) among equals: not by type (decision 0057).
 */
export function orderByAttention<T extends LicenseStateFacts>(
  list: T[],
  now: Date,
): { attention: AttentionItem<T>[]; rest: T[] } {
  const attention: (AttentionItem<T> & { at: number; index: number })[] = [];
  const rest: { license: T; at: number; index: number }[] = [];
  list.forEach((license, index) => {
    const kind = licenseAttention(license, now);
    const at = licenseState(license, now).date?.getTime() ?? Number.MAX_SAFE_INTEGER;
    // A date behind us is no next date: such a license goes after those with one ahead.
    if (!kind) return void rest.push({ license, at: at > now.getTime() ? at : Number.MAX_SAFE_INTEGER, index });
    attention.push({ license, kind, text: attentionText(kind, license, now), at, index });
  });
  attention.sort(
    (a, b) => ATTENTION_KINDS.indexOf(a.kind) - ATTENTION_KINDS.indexOf(b.kind) || a.at - b.at || a.index - b.index,
  );
  rest.sort((a, b) => a.at - b.at || a.index - b.index);
  return {
    attention: attention.map(({ license, kind, text }) => ({ license, kind, text })),
    rest: rest.map(({ license }) => license),
  };
}

/** A compact row's next date (what happens and when) and the amount, when one is charged. */
export function licenseNextStep(license: LicenseStateFacts, now: Date): { next: string | null; amount: string | null } {
  const { state, date, nextChargeCents, nextChargeCurrency } = licenseState(license, now);
  const day = date ? formatDate(date) : "";
  const amount = nextChargeCents !== null ? formatMoney(nextChargeCents, nextChargeCurrency) : null;
  const next: Record<typeof state, string | null> = {
    "charged-back": date ? `Charged back ${day}` : null,
    revoked: null,
    refunded: date ? `Refunded ${day}` : null,
    "refund-requested": null,
    "trial-expired": `Trial ended ${day}`,
    "trial-converting": `First charge ${day}`,
    "trial-active": `Trial ends ${day}`,
    expired: `Expired ${day}`,
    "payment-failed": `Works until ${day}`,
    renewing: `Renews ${day}`,
    "renewal-cancelled": `Ends ${day}`,
    "active-until": `Ends ${day}`,
  };
  return { next: next[state], amount };
}

/** With this many licenses or fewer every row starts open: there is nothing to scan. */
export const ALL_OPEN_UP_TO = 3;

/** Whether a license's row starts open: it needs the customer, or the page is short. */
export function rowStartsOpen(attention: AttentionKind | null, licenseCount: number): boolean {
  return attention !== null || licenseCount <= ALL_OPEN_UP_TO;
}
