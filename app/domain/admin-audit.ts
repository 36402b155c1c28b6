import { ADMIN_PAGE_SIZE, parsePage } from "./admin";

/** The audit log's filters, pagination and CSV export (decision 0025): pure rules shared by page and export. */

/**
 * Every action the audit log records, with the words the log, the timeline and the CSV show for it:
 * recordAudit takes only these keys, so a new action without readable words is a type error.
 */
export const AUDIT_ACTION_LABELS = {
  "license.revoke": "Revoked a license",
  "license.add_tester": "Added a tester license",
  "license.offline_data": "Set offline data",
  "license.offline_reset": "Reset offline data",
  "license.resend": "Resent the license e-mail",
  "license.payment_link": "E-mailed the customer the link to update their payment method",
  "machine.deactivate": "Deactivated a machine",
  "release.create": "Added a release",
  "release.update": "Edited a release",
  "release.delete": "Deleted a release",
  "refund.request": "Requested a refund",
  "license.plan_change": "Changed a license's plan",
  "license.renewal_cancel": "Cancelled renewal (with the reason and the offer's outcome)",
  "license.retention_offer": "Took the offer to keep renewing",
  "refund.staff": "Refunded a payment",
  "user.renewal_cancel": "Cancelled a renewal for the customer",
  "user.renewal_reenable": "Re-enabled a renewal for the customer",
  "user.email_change": "Changed the customer's e-mail address",
  "user.confirmation_resend": "Resent the confirmation e-mail",
  "user.two_factor_reset": "Reset two-factor authentication",
  "job.retry": "Retried a failed job",
  "job.discard": "Discarded a failed job",
  "release.publish": "Published a release",
  "release.unpublish": "Unpublished a release",
  "release.yank": "Yanked a release",
  "release.unyank": "Restored a yanked release",
  "api_token.create": "Created an API token",
  "api_token.revoke": "Revoked an API token",
  "webhook_endpoint.create": "Added a webhook endpoint",
  "webhook_endpoint.delete": "Deleted a webhook endpoint",
  "webhook_endpoint.disable": "Disabled a webhook endpoint",
  "webhook_endpoint.enable": "Enabled a webhook endpoint",
  "webhook_endpoint.redeliver": "Redelivered a webhook event",
  "team.invite": "Invited people to a team",
  "team.invitation_resend": "Resent a team invitation",
  "team.invitation_withdraw": "Withdrew a team invitation",
  "team.invitation_accept": "Accepted a team invitation",
  "team.seat_claim": "Took a team seat offered to their domain",
  "team.take_seat": "Took one of the team's free seats",
  "team.role": "Changed a team member's role",
  "team.remove_member": "Removed a team member",
  "team.rename": "Renamed a team",
  "team.domain_claim_on": "Offered a team's free seats to its domain",
  "team.domain_claim_off": "Stopped offering a team's seats to its domain",
  "team.seats": "Changed a team's seats",
  "team.plan": "Changed a team's plan",
  "license.charged_back": "Revoked a license for a chargeback",
  "license.chargeback_warning": "Recorded a chargeback warning (the license stays valid)",
  "license.chargeback_reversed": "Restored a license after a chargeback reversal",
  trial_refused: "Refused a trial",
  extension_refused: "Refused an extension",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** The readable words of an action; an action recorded by an older version keeps its code. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

export interface AuditFilters {
  action: string | null;
  actor: string | null;
  target: string | null;
  from: string | null;
  to: string | null;
}

export const AUDIT_DATE_ERROR = "Enter dates as YYYY-MM-DD.";
export const AUDIT_RANGE_ERROR = "The start date must not be after the end date.";

function text(params: URLSearchParams, name: string, max = 200): string | null {
  const value = params.get(name)?.trim().slice(0, max) ?? "";
  return value === "" ? null : value;
}

function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** The filters in a URL; a malformed date range gives a message (and no filter is applied). */
export function parseAuditFilters(params: URLSearchParams): {
  filters: AuditFilters;
  page: number;
  error: string | null;
} {
  const filters: AuditFilters = {
    action: text(params, "action", 100),
    actor: text(params, "actor"),
    target: text(params, "target"),
    from: text(params, "from", 20),
    to: text(params, "to", 20),
  };
  const page = parsePage(params.get("page"));
  if ((filters.from && !isDate(filters.from)) || (filters.to && !isDate(filters.to))) {
    return { filters, page, error: AUDIT_DATE_ERROR };
  }
  if (filters.from && filters.to && filters.from > filters.to) return { filters, page, error: AUDIT_RANGE_ERROR };
  return { filters, page, error: null };
}

/** The date range as instants: from midnight UTC of `from` up to (not including) the day after `to`. */
export function auditRange(filters: AuditFilters): { since: Date | null; before: Date | null } {
  const since = filters.from ? new Date(`${filters.from}T00:00:00Z`) : null;
  const before = filters.to ? new Date(new Date(`${filters.to}T00:00:00Z`).getTime() + 86_400_000) : null;
  return { since, before };
}

/** The query string of a view of the audit log (for links, pages and the export). */
export function auditQuery(filters: AuditFilters, extra: Record<string, string | number | null> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    if (value !== null && value !== "") params.set(name, String(value));
  }
  return params.toString();
}

export const AUDIT_PAGE_SIZE = ADMIN_PAGE_SIZE;

/**
 * One CSV field (RFC 4180), safe to open in a spreadsheet: a value starting with =, +, -, @, a tab
 * or a carriage return is prefixed with an apostrophe so it is never run as a formula, and every
 * field is quoted with inner quotes doubled.
 */
export function csvField(value: unknown): string {
  let textValue = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(textValue)) textValue = `'${textValue}`;
  return `"${textValue.replace(/"/g, '""')}"`;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

export const AUDIT_CSV_HEADER = [
  "time_utc",
  "actor_email",
  "actor_id",
  "action",
  "target_type",
  "target_id",
  "details",
];

export function auditCsvRow(entry: {
  created_at: string;
  actor_email: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  details: unknown;
}): string {
  return csvLine([
    entry.created_at,
    entry.actor_email,
    entry.actor_id,
    entry.action,
    entry.target_type,
    entry.target_id,
    JSON.stringify(entry.details ?? {}),
  ]);
}

/** An audit entry as the admin page shows it, with what its ids name (for links). */
export interface AdminAuditEntry {
  id: string;
  actor_id: string | null;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: string;
  details: Record<string, unknown>;
  created_at: string;
  /** The license the entry names (its target), when it still exists. */
  license: { id: string; short_id: string; user_id: string } | null;
  /** The user the entry is about (details.user_id or the license's owner), when known. */
  user_id: string | null;
}
