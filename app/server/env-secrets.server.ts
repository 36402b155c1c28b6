import { generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { EnvError } from "./env-error.server";

/** The secrets embedded mode generates (once, under DATA_DIR) when they are not given. */
export const SECRET_NAMES = [
  "BETTER_AUTH_SECRET",
  "LICENSE_SECRET",
  "LICENSE_SALT",
  "DEMO_WEBHOOK_SECRET",
  "LICENSE_SIGNING_KEY",
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/** The secrets file under DATA_DIR: written once with fresh random values, then reused. */
export function loadOrCreateSecrets(dataDir: string): Record<SecretName, string> {
  const file = path.join(dataDir, "secrets.json");
  let existing: Partial<Record<SecretName, string>> = {};
  if (fs.existsSync(file)) {
    try {
      existing = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Record<SecretName, string>>;
    } catch {
      throw new EnvError([`${file} is not valid JSON; fix it or delete it to generate new secrets`]);
    }
  }
  const complete = { ...existing } as Record<SecretName, string>;
  let changed = false;
  for (const name of SECRET_NAMES) {
    if (typeof complete[name] !== "string" || complete[name].length < 16) {
      complete[name] = name === "LICENSE_SIGNING_KEY" ? newSigningKey() : randomBytes(32).toString("base64url");
      changed = true;
    }
  }
  if (changed) {
    // Readable by the site's user only: the directory 0700, the file 0600 (also when it existed).
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dataDir, 0o700);
    fs.writeFileSync(file, `${JSON.stringify(complete, null, 2)}\n`, { mode: 0o600 });
  }
  if ((fs.statSync(file).mode & 0o777) !== 0o600) fs.chmodSync(file, 0o600);
  return complete;
}

/** A fresh Ed25519 private key in PKCS#8 PEM (embedded mode's generated signing key). */
export function newSigningKey(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}
