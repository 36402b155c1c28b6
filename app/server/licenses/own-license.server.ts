import { and, eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { licenses, type License } from "../db/schema";

/** A refused license action: the HTTP status and the text the user sees (spec section 8). */
export class LicenseActionError extends Error {
  constructor(
    public readonly status: 400 | 404 | 409 | 502,
    message: string,
  ) {
    super(message);
    this.name = "LicenseActionError";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the user's licenses by id; another user's (or no) license is "not found". */
export async function getOwnLicense(userId: string, licenseId: string): Promise<License> {
  if (!UUID.test(licenseId)) throw new LicenseActionError(404, "License not found");
  const [license] = await getDb()
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), eq(licenses.user_id, userId)));
  if (!license) throw new LicenseActionError(404, "License not found");
  return license;
}
