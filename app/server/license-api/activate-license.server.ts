import { ActionError } from "../action-error.server";
import type { License } from "../db/schema";
import { bindOfflineData } from "../licenses/offline-data.server";
import { findLicenseByKey } from "./find-license.server";
import { buildLicenseFile, type LicenseFile } from "./license-file.server";
import { describeLicense, type Validation } from "./validate-license.server";

export interface Activation extends Validation {
  license_file: LicenseFile | null;
}

/** The note on the audit entry of a binding made through the API. */
export const DESKTOP_API = "desktop API";

const isBound = (license: License) => license.windows_username !== null || license.computer_name !== null;
const isTrial = (license: License) => license.is_trial || license.license_type === "trial";

/**
 * POST /api/v1/licenses/activate: binds a valid, unbound license to the machine with the licenses
 * page's once-only rule (bindOfflineData: conditional write, new key, audit entry with the owner's
 * e-mail and no actor id). The same machine again is a success; another one is MACHINE_MISMATCH; a
 * license that is not valid is answered with its code and not bound. Trials have no offline data
 * (docs/product.md, "License states and types"): a valid trial is answered valid, unbound.
 */
export async function activateLicense({
  key,
  windows_username,
  computer_name,
}: {
  key: string;
  windows_username: string;
  computer_name: string;
}): Promise<Activation> {
  const machine = { windows_username, computer_name };
  let license = await findLicenseByKey(key);
  // A concurrent binding or renewal makes the conditional write miss: look again (at most twice).
  for (let attempt = 0; ; attempt++) {
    const answer = describeLicense(license, machine);
    if (!license || !answer.valid || isBound(license) || isTrial(license)) {
      return { ...answer, license_file: answer.valid && license ? buildLicenseFile(license) : null };
    }
    try {
      await bindOfflineData({
        license,
        windows_username,
        computer_name,
        actor: { id: null, email: license.email },
        source: DESKTOP_API,
      });
    } catch (error) {
      if (!(error instanceof ActionError) || attempt >= 2) throw error;
    }
    license = await findLicenseByKey(key);
  }
}
