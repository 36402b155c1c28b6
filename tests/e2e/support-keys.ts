import fs from "node:fs";
import path from "node:path";
import { createLicenseKeys } from "../../app/server/license-keys/license-key.server";

/** Decodes a key with the e2e server's generated secret and salt (DATA_DIR/secrets.json). */
export function decodeLicenseKey(key: string) {
  const secrets = JSON.parse(fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, "secrets.json"), "utf8")) as Record<
    string,
    string
  >;
  return createLicenseKeys(secrets.LICENSE_SECRET!, secrets.LICENSE_SALT!).decode(key);
}
