import type { AuditAction } from "~/domain/admin-audit";
import type { Transaction } from "../db/client.server";
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
  entry: { action: AuditAction; target_type: string; target_id: string; details?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(audit_log).values({ actor_id: actor.id, actor_email: actor.email, details: {}, ...entry });
}
