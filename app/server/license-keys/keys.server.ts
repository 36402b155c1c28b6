import { getEnv } from "../env.server";
import { createLicenseKeys, type LicenseKeys } from "./license-key.server";

let keys: LicenseKeys | undefined;

/** The process's license-key generator, from LICENSE_SECRET and LICENSE_SALT (derived once). */
export function licenseKeys(): LicenseKeys {
  keys ??= createLicenseKeys(getEnv().LICENSE_SECRET, getEnv().LICENSE_SALT);
  return keys;
}
