import { auditActionLabel } from "./admin-audit";
import { formatMoney } from "./billing";

/**
 * A customer's timeline on the admin's user page (decision 0038): what happened to the customer,
 * newest first, paged. Customer-side facts come from user_events (written by the code or trigger
 * that causes them), admin actions from the audit log (decision 0038). Pure: the rows' words.
 */

export const TIMELINE_PAGE_SIZE = 20;

export const USER_EVENT_LABELS: Record<string, string> = {
  "account.registered": "Registered",
  "account.confirmed": "Confirmed the e-mail address",
  "account.signed_in": "Signed in",
  "account.email_changed": "E-mail address changed",
  "payment.purchase": "Bought a license",
  "payment.renewal": "Renewal paid",
  "payment.extension": "Extension paid",
  "payment.plan_change": "Plan switch paid",
  "license.plan_changed": "Plan changed",
  "payment.failed": "Renewal payment failed",
  "payment.recovered": "Payment recovered",
  "refund.requested": "Refund requested",
  "refund.done": "Refund paid out",
  "renewal.cancelled": "Automatic renewal cancelled",
  "renewal.resumed": "Automatic renewal re-enabled",
  "renewal.cancel_answer": "Said why renewal was cancelled",
  "retention.offer_taken": "Took the offer to keep renewing",
  "offline_data.set": "Offline data entered",
  "offline_data.cleared": "Offline data cleared",
  "mail.sent": "E-mail sent",
};

export interface TimelineRow {
  id: string;
  at: string;
  /** "event" (the customer's account, payments, e-mails) or "admin" (an audit entry). */
  source: "event" | "admin";
  kind: string;
  details: Record<string, unknown>;
  /** Who acted (admin entries): their e-mail. */
  actor: string | null;
}

export interface TimelineEntry {
  id: string;
  at: string;
  source: "event" | "admin";
  title: string;
  detail: string;
}

const str = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : null);
const cents = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);

function money(details: Record<string, unknown>, field: string): string | null {
  const amount = cents(details[field]);
  return amount === null ? null : formatMoney(amount, str(details.currency) ?? "USD");
}

function eventDetail(kind: string, d: Record<string, unknown>): string {
  const license = str(d.short_id);
  const parts: (string | null)[] = [];
  if (kind === "mail.sent")
    parts.push(str(d.subject) ? `“${str(d.subject)}”` : null, str(d.to) ? `to ${str(d.to)}` : null);
  else if (kind === "account.signed_in") parts.push(str(d.ip) ? `from ${str(d.ip)}` : null);
  else if (kind === "account.email_changed") parts.push(str(d.from), str(d.to) ? `→ ${str(d.to)}` : null);
  else if (kind === "renewal.cancel_answer" || kind === "retention.offer_taken") parts.push(...leavingDetail(d));
  else {
    parts.push(license, money(d, "amount_cents"), money(d, "refunded_cents"), str(d.transaction_id));
  }
  return parts.filter(Boolean).join(" · ");
}

/** The cancel step's answer (decision 0065): the license, the reason and note, the offer and its outcome. */
function leavingDetail(d: Record<string, unknown>): (string | null)[] {
  return [
    str(d.short_id),
    str(d.reason) ? `reason: ${str(d.reason)}` : "no reason given",
    str(d.note) ? `“${str(d.note)}”` : null,
    str(d.offer) ? `offer ${str(d.offer)} ${str(d.outcome) ?? ""}`.trim() : "no offer made",
    money(d, "next_charge_cents"),
  ];
}

/** A team change's facts: the team, the person or addresses it was about, the role, name or domain. */
function teamDetail(d: Record<string, unknown>): (string | null)[] {
  const emails = Array.isArray(d.emails) ? d.emails.filter((e): e is string => typeof e === "string") : [];
  return [
    str(d.team_name) ? `team ${str(d.team_name)}` : null,
    str(d.from) ? `was ${str(d.from)}` : null,
    str(d.email),
    emails.length ? emails.join(", ") : null,
    str(d.role) ? `now ${str(d.role)}` : null,
    str(d.domain) ? `domain ${str(d.domain)}` : null,
    typeof d.seats === "number" ? `${d.seats} seats` : null,
  ];
}

function adminDetail(d: Record<string, unknown>, actor: string | null): string {
  const parts = [
    actor ? `by ${actor}` : null,
    ...teamDetail(d),
    str(d.short_id),
    str(d.reason) ? `reason: ${str(d.reason)}` : null,
    str(d.outcome),
    str(d.new_email) ? `new address ${str(d.new_email)}` : null,
  ];
  return parts.filter(Boolean).join(" · ");
}

/** One row's title and detail line, as the timeline shows it. */
export function timelineEntry(row: TimelineRow): TimelineEntry {
  const title = row.source === "admin" ? auditActionLabel(row.kind) : (USER_EVENT_LABELS[row.kind] ?? row.kind);
  const detail = row.source === "admin" ? adminDetail(row.details, row.actor) : eventDetail(row.kind, row.details);
  return { id: row.id, at: row.at, source: row.source, title, detail };
}

/** A page of the timeline: its entries and whether an older page exists. */
export interface TimelinePage {
  page: number;
  entries: TimelineEntry[];
  hasNext: boolean;
}
