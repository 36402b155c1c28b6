import { and, eq, isNull } from "drizzle-orm";
import { isRefundLocked } from "~/domain/license-status";
import { LICENSE_ERRORS } from "~/domain/license-texts";
import { getDb } from "../db/db.server";
import { licenses, type License } from "../db/schema";
import { licenseKeys } from "../license-keys/keys.server";
import { ActionError } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { getOwnLicense, TEAM_SUBSCRIPTION_REFUSED } from "./own-license.server";

export const OFFLINE_DATA_ONCE = "Offline data can be changed only once.";

/** The form's rules (app/domain/offline-data.ts), checked again on the server. */
export { offlineDataSchema } from "~/domain/offline-data";

/** Where offline data was set from: the licenses page (the owner) or the desktop API's activation. */
export type OfflineDataSource = "licenses page" | "desktop API";

/**
 * Sets a license's offline data, once: only while both values are unset (docs/product.md, "Licenses"). When
 * either is set, the key is regenerated from the license e-mail, the two values and the existing
 * dates. The write is conditional, so two concurrent saves cannot both succeed.
 */
export async function setOfflineData({
  user,
  licenseId,
  windows_username,
  computer_name,
}: {
  user: AuditActor & { id: string };
  licenseId: string;
  windows_username: string | null;
  computer_name: string | null;
}): Promise<{ keyRegenerated: boolean }> {
  const license = await getOwnLicense(user.id, licenseId);
  // A seat's member sets its offline data like any license's; the team's subscription row is no key to use.
  if (license.team_role === "billing") throw new ActionError(409, TEAM_SUBSCRIPTION_REFUSED);
  return bindOfflineData({ license, windows_username, computer_name, actor: user, source: "licenses page" });
}

/**
 * The once-only rule itself, for a license already found (by its owner on the licenses page, or by
 * its key in the desktop API): refused for trials, revoked and refund-locked licenses and when
 * either value is set; the key is regenerated; the conditional write and its audit entry are one
 * transaction. Throws ActionError(409) when refused.
 */
export async function bindOfflineData({
  license,
  windows_username,
  computer_name,
  actor,
  source,
}: {
  license: License;
  windows_username: string | null;
  computer_name: string | null;
  actor: AuditActor;
  source: OfflineDataSource;
}): Promise<{ keyRegenerated: boolean; licenseKey: string }> {
  if (license.is_trial || license.license_type === "trial") {
    throw new ActionError(409, "Trial licenses have no offline data.");
  }
  if (license.status === "revoked" || isRefundLocked(license)) {
    throw new ActionError(409, "This license's offline data cannot be changed.");
  }
  if (license.windows_username !== null || license.computer_name !== null) {
    throw new ActionError(409, OFFLINE_DATA_ONCE);
  }
  const keyRegenerated = windows_username !== null || computer_name !== null;
  let license_key = license.license_key;
  if (keyRegenerated) {
    try {
      license_key = licenseKeys().generate({
        email: license.email,
        windows_username,
        computer_name,
        start_date: license.start_date,
        end_date: license.end_date,
      });
    } catch {
      throw new ActionError(409, LICENSE_ERRORS.newKey);
    }
  }
  const written = await getDb().transaction(async (tx) => {
    const updated = await tx
      .update(licenses)
      .set({ windows_username, computer_name, license_key })
      .where(
        and(
          eq(licenses.id, license.id),
          eq(licenses.user_id, license.user_id),
          isNull(licenses.windows_username),
          isNull(licenses.computer_name),
          // The key was made from these dates: a renewal in between must not be overwritten.
          eq(licenses.end_date, license.end_date),
          eq(licenses.license_key, license.license_key),
          // A revoke or refund request in between wins.
          eq(licenses.status, "active"),
          eq(licenses.refunded, false),
        ),
      )
      .returning({ id: licenses.id });
    if (updated.length === 0) return false;
    await recordAudit(tx, actor, {
      action: "license.offline_data",
      target_type: "license",
      target_id: license.id,
      details: {
        user_id: license.user_id,
        windows_username,
        computer_name,
        key_regenerated: keyRegenerated,
        ...(source === "desktop API" ? { note: "desktop API" } : {}),
      },
    });
    return true;
  });
  if (!written) {
    const [now] = await getDb().select().from(licenses).where(eq(licenses.id, license.id));
    if (now && (now.windows_username !== null || now.computer_name !== null))
      throw new ActionError(409, OFFLINE_DATA_ONCE);
    throw new ActionError(409, "The license changed while saving. Please try again.");
  }
  return { keyRegenerated, licenseKey: license_key };
}
