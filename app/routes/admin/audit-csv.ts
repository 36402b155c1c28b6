import { AUDIT_CSV_HEADER, auditCsvRow, csvLine, parseAuditFilters } from "~/domain/admin-audit";
import { auditBatches } from "~/server/admin/audit-log.server";
import { currentAdmin } from "~/http/admin-guard.server";
import { getLogger } from "~/server/logger.server";
import type { Route } from "./+types/audit-csv";

const text = (body: string, status: number) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * The audit log as CSV (decision 0025), with the same filters as the page: admins with two-factor on
 * only (the admin layout's guard: 401 signed out, 403 for everyone else, as a file has no page to
 * redirect to); every field is quoted and one that a spreadsheet would run as a formula is
 * prefixed with an apostrophe. Streamed in batches.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  currentAdmin(context);
  const { filters, error } = parseAuditFilters(new URL(request.url).searchParams);
  if (error) return text(`${error}\n`, 400);
  const encoder = new TextEncoder();
  const batches = auditBatches(filters);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(AUDIT_CSV_HEADER)}`));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) return controller.close();
        const rows = next.value.map((row) =>
          auditCsvRow({ ...row, created_at: row.created_at.toISOString(), details: row.details }),
        );
        controller.enqueue(encoder.encode(rows.join("")));
      } catch (err) {
        getLogger().error({ err }, "audit export failed");
        controller.error(err);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
