import { eq } from "drizzle-orm";
import type { AuditAction } from "~/domain/admin-audit";
import { recordAudit } from "../audit/audit.server";
import type { Transaction } from "../db/client.server";
import { users, type Team } from "../db/schema";

/** The audit log's team actions: every change to a team's people, seats, name and domain claim. */
export type TeamAuditAction = Extract<AuditAction, `team.${string}`>;

/**
 * Records a team change in the audit log, inside the transaction that makes it: who (the actor's
 * account and address), which team (id and name), and whose timeline it belongs on (`user_id`: the
 * member it happened to, else the actor). The admin timeline also lists a person's own team changes.
 */
export async function auditTeamChange(
  tx: Transaction,
  actorId: string,
  team: Pick<Team, "id" | "name">,
  action: TeamAuditAction,
  details: Record<string, unknown> & { user_id?: string } = {},
): Promise<void> {
  const [actor] = await tx.select({ email: users.email }).from(users).where(eq(users.id, actorId));
  await recordAudit(
    tx,
    { id: actorId, email: actor?.email ?? "" },
    {
      action,
      target_type: "team",
      target_id: team.id,
      details: { team_name: team.name, user_id: actorId, ...details },
    },
  );
}
