import type { AuditEntryView } from "~/domain/views";
import { desc } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { audit_log } from "../db/schema";

/** Who acted: a person (their account), or a system such as the payment webhook (no account). */
export interface AuditActor {
  id: string | null;
  email: string;
}

/** The payment provider's webhook, acting on its own (e.g. a trial it refused to grant). */
export const WEBHOOK_ACTOR: AuditActor = { id: null, email: "payment webhook" };

/** Records who did what to which record, inside the transaction that does it. */
export async function recordAudit(
  tx: Transaction,
  actor: AuditActor,
  entry: { action: string; target_type: string; target_id: string; details?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(audit_log).values({ actor_id: actor.id, actor_email: actor.email, details: {}, ...entry });
}

/** The newest audit entries, for the admin page. */
export async function listAuditEntries(limit = 100): Promise<AuditEntryView[]> {
  const rows = await getDb().select().from(audit_log).orderBy(desc(audit_log.created_at)).limit(limit);
  return rows.map((row) => ({
    ...row,
    created_at: row.created_at.toISOString(),
    details: row.details as Record<string, unknown>,
  }));
}
