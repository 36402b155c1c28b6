import { data } from "react-router";
import { AdminAudit } from "~/components/admin/admin-audit";
import { AdminPage } from "~/components/admin/admin-nav";
import { ADMIN_ERRORS } from "~/domain/admin";
import { parseAuditFilters } from "~/domain/admin-audit";
import { currentAdmin } from "~/http/admin-guard.server";
import { adminReads } from "~/http/admin-reads.server";
import { pageTitle } from "~/lib/meta";
import { auditActions, listAudit } from "~/server/admin/audit-log.server";
import type { Route } from "./+types/audit";

/** The audit log, filtered and paged by the URL (`?action=…&target=…&page=2`). */
export async function loader({ request, context }: Route.LoaderArgs) {
  currentAdmin(context);
  const { filters, page, error } = parseAuditFilters(new URL(request.url).searchParams);
  const reads = adminReads(context);
  const actions = await reads.attempt(ADMIN_ERRORS.loadAudit, () => auditActions());
  if (error) {
    return data({ audit: { filters, page, actions: actions.value ?? [], value: null, error } }, { status: 400 });
  }
  const read = await reads.attempt(ADMIN_ERRORS.loadAudit, () => listAudit(filters, page));
  reads.done();
  return { audit: { filters, page, actions: actions.value ?? [], ...read } };
}

export default function AdminAuditRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Audit log" intro="Who did what, and to whom.">
      <AdminAudit audit={loaderData.audit} />
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Audit log · Administration"),
  { name: "robots", content: "noindex" },
];
