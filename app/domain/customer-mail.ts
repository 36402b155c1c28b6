/**
 * The e-mails a customer gets about a license (decision 0022): which kinds exist, which are reminders
 * (a customer can turn those off; transactional ones always go), and when a reminder is due.
 * Pure: the scan job, the send job and the tests share these rules.
 */

import { getPlan, orList, PLAN_IDS } from "./plans";

export const CUSTOMER_MAIL_KINDS = [
  "license-delivered",
  "trial-ends-soon",
  "renewal-coming",
  "renewed",
  "paid-plan-started",
  "extended",
  "payment-failed",
  "refund-processed",
  "subscription-cancelled",
  "license-revoked",
] as const;
export type CustomerMailKind = (typeof CUSTOMER_MAIL_KINDS)[number];

/** Reminders: sent ahead of a charge, and only to customers who keep reminder e-mails on. */
export const REMINDER_KINDS = ["trial-ends-soon", "renewal-coming"] as const satisfies readonly CustomerMailKind[];
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** A trial's "ends soon" e-mail goes this many days before it converts into a paid subscription. */
export const TRIAL_REMINDER_DAYS = 3;
/** "Renewal coming" goes this many days before a 6-month or yearly plan renews. */
export const RENEWAL_REMINDER_DAYS = 7;
/** Plans long enough to deserve a reminder before they renew (the plan table's; a monthly charge is expected). */
const RENEWAL_REMINDER_PLANS = PLAN_IDS.filter((plan) => getPlan(plan).renewalReminder);
/** Those plans in a sentence: "6-month or yearly". */
const REMINDED_PLANS = orList(RENEWAL_REMINDER_PLANS.map((plan) => getPlan(plan).adjective));

const DAY = 24 * 60 * 60 * 1000;

export function isCustomerMailKind(value: unknown): value is CustomerMailKind {
  return typeof value === "string" && (CUSTOMER_MAIL_KINDS as readonly string[]).includes(value);
}

export function isReminderKind(kind: CustomerMailKind): kind is ReminderKind {
  return (REMINDER_KINDS as readonly string[]).includes(kind);
}

/**
 * The job key of one e-mail: the license, the kind and the occasion (a period's end, a
 * transaction, an adjustment). The same occasion never sends the same e-mail twice.
 */
export function customerMailKey(kind: CustomerMailKind, licenseId: string, occasion: string): string {
  return `customer-mail:${kind}:${licenseId}:${occasion}`;
}

/** What the reminder rules read of a license. */
export interface ReminderFacts {
  license_type: string;
  status: string;
  refunded: boolean;
  end_date: Date;
  is_trial: boolean;
  trial_ends_at: Date | null;
  auto_renew: boolean;
  cancellation_requested: boolean;
  has_subscription: boolean;
}

/** A license that will be charged at its period's end: active, renewing, not cancelled or refunded. */
function willBeCharged(license: ReminderFacts): boolean {
  return (
    license.status === "active" &&
    !license.refunded &&
    license.has_subscription &&
    license.auto_renew &&
    !license.cancellation_requested
  );
}

/**
 * The reminder due for a license now, with the moment it is about (the trial's end or the renewal
 * date, which makes its key), or null. Due from N days before that moment until the moment itself,
 * so a scan that runs late (a restart, an outage) still sends it.
 */
export function dueReminder(license: ReminderFacts, now: Date): { kind: ReminderKind; at: Date } | null {
  if (!willBeCharged(license)) return null;
  const within = (at: Date, days: number) => at.getTime() > now.getTime() && at.getTime() - now.getTime() <= days * DAY;
  if (license.is_trial) {
    const at = license.trial_ends_at ?? license.end_date;
    return within(at, TRIAL_REMINDER_DAYS) ? { kind: "trial-ends-soon", at } : null;
  }
  if (!(RENEWAL_REMINDER_PLANS as readonly string[]).includes(license.license_type)) return null;
  return within(license.end_date, RENEWAL_REMINDER_DAYS) ? { kind: "renewal-coming", at: license.end_date } : null;
}

/** The earliest end date a scan must look at: reminders are never due further ahead than this. */
export function reminderHorizon(now: Date): Date {
  return new Date(now.getTime() + Math.max(TRIAL_REMINDER_DAYS, RENEWAL_REMINDER_DAYS) * DAY);
}

/** The start of the hour a moment falls in: reminder scans run once per hour, keyed by it. */
export function scanHour(now: Date): Date {
  const hour = new Date(now);
  hour.setUTCMinutes(0, 0, 0);
  return hour;
}

/** The profile's reminder switch: "on" when checked, absent when not (a native checkbox). */
export function parseReminderChoice(form: FormData): { ok: true; enabled: boolean } | { ok: false; message: string } {
  const values = form.getAll("reminder_emails");
  if (values.length === 0) return { ok: true, enabled: false };
  if (values.length === 1 && values[0] === "on") return { ok: true, enabled: true };
  return { ok: false, message: "Choose whether to receive reminder e-mails." };
}

export const REMINDER_TEXTS = {
  title: "E-mail reminders",
  description: `Before a trial turns into a paid subscription, and a week before a ${REMINDED_PLANS} plan renews, we can remind you by e-mail. Receipts, license keys and notices about payments, refunds and cancellations are always sent.`,
  label: "Send me reminders before I am charged",
  save: "Save e-mail preferences",
  on: "Reminder e-mails are on",
  onDescription: `We will remind you before a trial ends and before a ${REMINDED_PLANS} plan renews.`,
  off: "Reminder e-mails are off",
  failed: "Could not save your e-mail preferences",
} as const;
