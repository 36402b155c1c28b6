import { Download, Filter } from "~/components/lucide-icons";
import { Form, Link } from "react-router";
import { formatMoney } from "~/domain/billing";
import { auditActionLabel, auditQuery, type AdminAuditEntry, type AuditFilters } from "~/domain/admin-audit";
import { AdminPager } from "./admin-pager";
import { FormMessage } from "../form-field";
import { Button } from "../ui/button";
import { CardCell, CardRow, CardTable } from "../ui/card-table";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { NativeSelect } from "../ui/native-select";

export interface AdminAuditView {
  filters: AuditFilters;
  page: number;
  actions: string[];
  value: { entries: AdminAuditEntry[]; page: number; hasNext: boolean } | null;
  error: string | null;
}

function describe(entry: AdminAuditEntry): string {
  const d = entry.details;
  const parts: string[] = [];
  if (typeof d.version === "string") parts.push(`version ${d.version}`);
  if (typeof d.amount_cents === "number")
    parts.push(formatMoney(d.amount_cents, typeof d.currency === "string" ? d.currency : "USD"));
  if (typeof d.days === "number") parts.push(`${d.days} days`);
  if (typeof d.email === "string") parts.push(d.email);
  if (typeof d.computer_name === "string") parts.push(`computer ${d.computer_name}`);
  if (typeof d.reason === "string") parts.push(`reason: ${d.reason}`);
  return parts.join(" · ");
}

/** The record an entry names, linked to the user (and license) it is about when known. */
export function AuditRecord({ entry }: { entry: AdminAuditEntry }) {
  const shortId =
    entry.license?.short_id ?? (typeof entry.details.short_id === "string" ? entry.details.short_id : null);
  const label =
    entry.target_type === "license" && shortId ? `license ${shortId}` : `${entry.target_type} ${entry.target_id}`;
  if (entry.user_id) {
    const anchor = entry.license ? `#license-${entry.license.id}` : "";
    return (
      <Link to={`/admin/users/${entry.user_id}${anchor}`} className="break-all underline underline-offset-2">
        {label}
      </Link>
    );
  }
  return <span className="break-all">{label}</span>;
}

const AUDIT_COLUMNS = ["When (UTC)", "Who", "What", "Record"].map((label) => ({ label }));

export function AuditTable({ entries, caption }: { entries: AdminAuditEntry[]; caption: string }) {
  return (
    // Below 768 px each entry is a labelled card (as on the billing page): no sideways scrolling.
    <div className="rounded-lg border">
      <CardTable caption={caption} columns={AUDIT_COLUMNS}>
        {entries.map((entry) => (
          <CardRow key={entry.id} data-testid="audit-entry">
            <CardCell label="When (UTC)" className="md:whitespace-nowrap">
              {entry.created_at.slice(0, 16).replace("T", " ")}
            </CardCell>
            <CardCell label="Who" className="break-all">
              {entry.actor_id ? (
                <Link to={`/admin/users/${entry.actor_id}`} className="underline underline-offset-2">
                  {entry.actor_email}
                </Link>
              ) : (
                entry.actor_email
              )}
            </CardCell>
            <CardCell label="What">
              {auditActionLabel(entry.action)} <span className="text-muted-foreground">{describe(entry)}</span>
            </CardCell>
            <CardCell label="Record" className="font-mono text-xs">
              <AuditRecord entry={entry} />
            </CardCell>
          </CardRow>
        ))}
      </CardTable>
    </div>
  );
}

/** Audit log page (/admin/audit): filters (action, actor, target, dates), pages of 50, CSV export of the filtered log. */
export function AdminAudit({ audit }: { audit: AdminAuditView }) {
  const { filters, page, actions, value, error } = audit;
  const href = (to: number) => `/admin/audit?${auditQuery(filters, { page: to })}`;
  const exportHref = `/admin/audit.csv${auditQuery(filters) ? `?${auditQuery(filters)}` : ""}`;
  const choices = filters.action && !actions.includes(filters.action) ? [...actions, filters.action] : actions;
  return (
    <div className="flex flex-col gap-4">
      <Form
        method="get"
        action="/admin/audit"
        className="grid gap-3 rounded-lg border p-4 sm:grid-cols-2 lg:grid-cols-3"
        aria-label="Filter the audit log"
      >
        <div className="flex min-w-0 flex-col gap-2">
          <Label htmlFor="audit-action">Action</Label>
          <NativeSelect id="audit-action" name="action" defaultValue={filters.action ?? ""}>
            <option value="">Any action</option>
            {choices.map((action) => (
              <option key={action} value={action}>
                {auditActionLabel(action)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-actor">Actor</Label>
          <Input id="audit-actor" name="actor" defaultValue={filters.actor ?? ""} placeholder="E-mail or user id" />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-target">Target</Label>
          <Input
            id="audit-target"
            name="target"
            defaultValue={filters.target ?? ""}
            placeholder="User or license id, short id"
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-from">From (UTC)</Label>
          <Input id="audit-from" name="from" type="date" defaultValue={filters.from ?? ""} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-to">To (UTC)</Label>
          <Input id="audit-to" name="to" type="date" defaultValue={filters.to ?? ""} />
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Button type="submit">
            <Filter aria-hidden /> Filter
          </Button>
          <Button asChild variant="outline">
            <Link to="/admin/audit">Clear</Link>
          </Button>
        </div>
      </Form>
      <div className="flex justify-end">
        <Button asChild variant="outline" size="sm">
          <a href={exportHref} download>
            <Download aria-hidden /> Export CSV
          </a>
        </Button>
      </div>
      {error ? <FormMessage>{error}</FormMessage> : null}
      {value ? (
        value.entries.length === 0 ? (
          <p className="text-muted-foreground">{page > 1 ? "No more entries." : "No entries match."}</p>
        ) : (
          <AuditTable entries={value.entries} caption="Admin actions and refund requests, newest first" />
        )
      ) : null}
      {value ? <AdminPager page={page} hasNext={value.hasNext} href={href} label="Pages of the audit log" /> : null}
    </div>
  );
}
