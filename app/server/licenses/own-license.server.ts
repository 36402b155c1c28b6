import { and, eq, getTableColumns } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { licenses, teams, type License } from "../db/schema";
import { ActionError, isUuid } from "../action-error.server";

/** One of the user's licenses by id; another user's (or no) license is "not found". */
export async function getOwnLicense(
  userId: string,
  licenseId: string,
): Promise<License & { team_name: string | null }> {
  if (!isUuid(licenseId)) throw new ActionError(404, "License not found");
  // A team's seat (issue 30) carries its team's name into the license file.
  const [license] = await getDb()
    .select({ ...getTableColumns(licenses), team_name: teams.name })
    .from(licenses)
    .leftJoin(teams, eq(teams.id, licenses.team_id))
    .where(and(eq(licenses.id, licenseId), eq(licenses.user_id, userId)));
  if (!license) throw new ActionError(404, "License not found");
  return license;
}
