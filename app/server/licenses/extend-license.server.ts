import { and, eq } from "drizzle-orm";
import { addMonths, extensionMonths, isValidExtension } from "~/domain/extension";
import { isRefundLocked } from "~/domain/license-status";
import { getDb } from "../db/db.server";
import { licenses } from "../db/schema";
import { licenseKeys } from "./keys.server";

export class LicenseActionError extends Error {
  constructor(
    public readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = "LicenseActionError";
  }
}

/** One of the user's licenses by id; another user's (or no) license is "not found". */
export async function getOwnLicense(userId: string, licenseId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(licenseId)) throw new LicenseActionError(404, "License not found");
  const [license] = await getDb()
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), eq(licenses.user_id, userId)));
  if (!license) throw new LicenseActionError(404, "License not found");
  return license;
}

/**
 * Adds months (plus 12 per year) to the license's end date and stores a key regenerated
 * for the new dates. The price and the new date are computed here, never by the browser.
 */
export async function extendLicense({ userId, licenseId, months, years }: { userId: string; licenseId: string; months: number; years: number }) {
  if (!isValidExtension(months, years)) {
    throw new LicenseActionError(400, "Choose 0 to 12 extra months and 0 to 5 extra years, at least one month in all.");
  }
  const license = await getOwnLicense(userId, licenseId);
  if (license.status === "revoked" || isRefundLocked(license)) {
    throw new LicenseActionError(409, "This license cannot be extended.");
  }
  const end_date = addMonths(license.end_date, extensionMonths(months, years));
  const license_key = licenseKeys().generate({
    email: license.email,
    windows_username: license.windows_username,
    computer_name: license.computer_name,
    start_date: license.start_date,
    end_date,
  });
  await getDb()
    .update(licenses)
    .set({ end_date, license_key })
    .where(and(eq(licenses.id, license.id), eq(licenses.user_id, userId)));
  return { end_date, license_key };
}
