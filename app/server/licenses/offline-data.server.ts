import { hasDisallowedCharacters } from "~/domain/text-input";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { isRefundLocked } from "~/domain/license-status";
import { LICENSE_ERRORS } from "~/domain/license-texts";
import { getDb } from "../db/db.server";
import { licenses } from "../db/schema";
import { licenseKeys } from "../license-keys/keys.server";
import { ActionError } from "../action-error.server";
import { getOwnLicense } from "./own-license.server";

/** Windows usernames (DOMAIN\user) and computer names: trimmed; empty means not set. */
const offlineValue = z
  .string()
  .trim()
  .max(256, { message: "Use at most 256 characters." })
  .refine((value) => !hasDisallowedCharacters(value), { message: "Use printable characters only." })
  .transform((value) => (value === "" ? null : value));

export const offlineDataSchema = z.object({
  windows_username: offlineValue,
  computer_name: offlineValue,
});

/**
 * Sets a license's offline data, once: only while both values are unset (spec.md section 4). When
 * either is set, the key is regenerated from the license e-mail, the two values and the existing
 * dates. The write is conditional, so two concurrent saves cannot both succeed.
 */
export async function setOfflineData({
  userId,
  licenseId,
  windows_username,
  computer_name,
}: {
  userId: string;
  licenseId: string;
  windows_username: string | null;
  computer_name: string | null;
}): Promise<{ keyRegenerated: boolean }> {
  const license = await getOwnLicense(userId, licenseId);
  if (license.is_trial || license.license_type === "trial") {
    throw new ActionError(409, "Trial licenses have no offline data.");
  }
  if (license.status === "revoked" || isRefundLocked(license)) {
    throw new ActionError(409, "This license's offline data cannot be changed.");
  }
  if (license.windows_username !== null || license.computer_name !== null) {
    throw new ActionError(409, "Offline data can be changed only once.");
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
  const updated = await getDb()
    .update(licenses)
    .set({ windows_username, computer_name, license_key })
    .where(
      and(
        eq(licenses.id, license.id),
        eq(licenses.user_id, userId),
        isNull(licenses.windows_username),
        isNull(licenses.computer_name),
        // The key was made from these dates: a renewal in between must not be overwritten.
        eq(licenses.end_date, license.end_date),
        eq(licenses.license_key, license.license_key),
      ),
    )
    .returning({ id: licenses.id });
  if (updated.length === 0) {
    const now = await getOwnLicense(userId, licenseId);
    if (now.windows_username !== null || now.computer_name !== null)
      throw new ActionError(409, "Offline data can be changed only once.");
    throw new ActionError(409, "The license changed while saving. Please try again.");
  }
  return { keyRegenerated };
}
