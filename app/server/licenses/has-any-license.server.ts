import { eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { licenses } from "../db/schema";

/** Whether the user has ever had a license. */
export async function hasAnyLicense(userId: string): Promise<boolean> {
  const rows = await getDb().select({ id: licenses.id }).from(licenses).where(eq(licenses.user_id, userId)).limit(1);
  return rows.length > 0;
}
