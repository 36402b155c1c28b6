import { and, eq, gt } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { verifications } from "../db/schema";

/** Whether a password-reset token exists, is unused and younger than 24 hours. */
export async function isResetTokenValid(token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const [row] = await getDb()
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.identifier, `reset-password:${token}`), gt(verifications.expiresAt, new Date())));
  return Boolean(row);
}
