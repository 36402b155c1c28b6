import type { AuditEntryView } from "~/domain/views";
import { FormMessage } from "./form-field";

const ACTIONS: Record<string, string> = {
  "license.revoke": "Revoked a license",
  "license.add_tester": "Added a tester license",
  "release.create": "Added a release",
  "release.update": "Edited a release",
  "release.delete": "Deleted a release",
  "refund.request": "Requested a refund",
};

function describe(entry: AuditEntryView): string {
  const d = entry.details;
  if (typeof d.version === "string") return `version ${d.version}`;
  if (typeof d.amount_cents === "number") return `$${(d.amount_cents / 100).toFixed(2)}`;
  if (typeof d.days === "number") return `${d.days} days for ${String(d.email ?? "")}`;
  if (typeof d.email === "string") return d.email;
  return "";
}

/** Audit log tab: the newest entries: when, who, what, which record. */
export function AdminAudit({ entries, error }: { entries: AuditEntryView[] | null; error: string | null }) {
  if (error) return <FormMessage>{error}</FormMessage>;
  if (!entries?.length) return <p className="text-muted-foreground">Nothing recorded yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">Recent admin actions and refund requests</caption>
        <thead className="bg-muted/50 text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              When (UTC)
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Who
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              What
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Record
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-testid="audit-entry" className="border-t">
              <td className="whitespace-nowrap px-3 py-2">{entry.created_at.slice(0, 16).replace("T", " ")}</td>
              <td className="break-all px-3 py-2">{entry.actor_email}</td>
              <td className="px-3 py-2">
                {ACTIONS[entry.action] ?? entry.action} <span className="text-muted-foreground">{describe(entry)}</span>
              </td>
              <td className="px-3 py-2 font-mono text-xs text-muted-foreground">
                {entry.target_type} {entry.target_id.slice(0, 8)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
