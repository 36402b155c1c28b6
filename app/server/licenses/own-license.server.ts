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
  // A team's seat carries its team's name into the license file.
  const [license] = await getDb()
    .select({ ...getTableColumns(licenses), team_name: teams.name })
    .from(licenses)
    .leftJoin(teams, eq(teams.id, licenses.team_id))
    .where(and(eq(licenses.id, licenseId), eq(licenses.user_id, userId)));
  if (!license) throw new ActionError(404, "License not found");
  return license;
}

/** The refusal of a billing action on a team's seat: paying is the team owner's. */
export const seatBillingRefused = (team: string | null) =>
  `This seat is provided by ${team ?? "a team"}; its owner manages billing.`;
/** The refusal of an action that concerns one person's license on the team's subscription row. */
export const TEAM_SUBSCRIPTION_REFUSED =
  "This is your team's subscription, not a license to use: manage it on your team page, where seats are handed out.";

/**
 * One of the user's licenses for a billing action (refund, renewal, extension): a team's seat is
 * refused (409), its team's owner pays for it; with `personal`, the team's subscription row too
 * (extension, offline data: they belong to one person's license).
 */
export async function getOwnBillableLicense(
  userId: string,
  licenseId: string,
  { personal = false }: { personal?: boolean } = {},
): Promise<License & { team_name: string | null }> {
  const license = await getOwnLicense(userId, licenseId);
  if (license.team_role === "seat") throw new ActionError(409, seatBillingRefused(license.team_name));
  if (personal && license.team_role === "billing") throw new ActionError(409, TEAM_SUBSCRIPTION_REFUSED);
  return license;
}
