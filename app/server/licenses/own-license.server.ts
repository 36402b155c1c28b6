import { and, eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { licenses, type License } from "../db/schema";
import { ActionError, isUuid } from "../action-error.server";

/** One of the user's licenses by id; another user's (or no) license is "not found". */
export async function getOwnLicense(userId: string, licenseId: string): Promise<License> {
  if (!isUuid(licenseId)) throw new ActionError(404, "License not found");
  const [license] = await getDb()
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), eq(licenses.user_id, userId)));
  if (!license) throw new ActionError(404, "License not found");
  return license;
}
