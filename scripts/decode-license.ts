// npm run license:decode -- <key>: prints the payload of a license key, decrypted with this
// configuration's LICENSE_SECRET and LICENSE_SALT (support staff and the tool's developers use it).
import { getEnv } from "../app/server/env.server";
import { LicenseKeyError, createLicenseKeys } from "../app/server/license-keys/license-key.server";

const key = process.argv[2];
if (!key || process.argv.length > 3) {
  console.error("Usage: npm run license:decode -- <license key>");
  process.exit(2);
}
const env = getEnv();
try {
  console.log(JSON.stringify(createLicenseKeys(env.LICENSE_SECRET, env.LICENSE_SALT).decode(key), null, 2));
} catch (error) {
  console.error(error instanceof LicenseKeyError ? error.message : error);
  process.exit(1);
}
