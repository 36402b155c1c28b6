// The license API bench's data (bench/license-api.ts): users with one active yearly license each and
// one machine activated on it.
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "../../app/server/db/client.server";
import { licenses, machines, profiles, users } from "../../app/server/db/schema";
import { fingerprintHash } from "../../app/server/machines/machine-records.server";
import { parseEnv } from "../../app/server/env.server";
import { createLicenseKeys } from "../../app/server/license-keys/license-key.server";

const DAY = 86_400_000;

/** One validation the bench sends: a key and the fingerprint of the machine activated on its license. */
export interface Call {
  key: string;
  fingerprint: string;
}

/**
 * `total` users with one active yearly license each, keys made with the data directory's secrets
 * (the ones the server reads); every fourth license then gets a new key, so its first key is a
 * superseded one the API must still resolve. Each license has one machine activated (a fingerprint
 * seen just now, so validations record nothing within the hour). Returns the keys and fingerprints.
 */
export async function seed(database: DatabaseHandle, dataDir: string, total: number): Promise<Call[]> {
  await database.migrate();
  const env = parseEnv({ NODE_ENV: "development", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const keys = createLicenseKeys(env.LICENSE_SECRET, env.LICENSE_SALT);
  const start = new Date(Date.now() - DAY);
  const end = new Date(Date.now() + 365 * DAY);
  const tag = Date.now().toString(36);
  const issued: Call[] = [];
  for (let from = 0; from < total; from += 500) {
    const count = Math.min(500, total - from);
    const emails = Array.from({ length: count }, (_, i) => `bench-api-${tag}-${from + i}@example.com`);
    const made = await database.db
      .insert(users)
      .values(emails.map((email) => ({ email, name: "Bench", emailVerified: true })))
      .returning({ id: users.id, email: users.email });
    await database.db.insert(profiles).values(made.map((user) => ({ id: user.id, full_name: "Bench User" })));
    const rows = made.map((user) => ({
      user_id: user.id,
      email: user.email,
      license_key: keys.generate({
        email: user.email,
        windows_username: null,
        computer_name: null,
        start_date: start,
        end_date: end,
      }),
      license_type: "yearly" as const,
      status: "active" as const,
      start_date: start,
      end_date: end,
      auto_renew: true,
      purchase_date: start,
    }));
    const inserted = await database.db
      .insert(licenses)
      .values(rows)
      .returning({ id: licenses.id, key: licenses.license_key, email: licenses.email, user_id: licenses.user_id });
    const fingerprints = inserted.map((_, i) => `bench-machine-${tag}-${String(from + i).padStart(6, "0")}`);
    await database.db.insert(machines).values(
      inserted.map((row, i) => ({
        license_id: row.id,
        user_id: row.user_id,
        fingerprint_hash: fingerprintHash(fingerprints[i]!),
        name: `BENCH-${from + i}`,
        platform: "Windows 11 x64",
        app_version: "2.4.0",
      })),
    );
    for (const [i, row] of inserted.entries()) {
      issued.push({ key: row.key, fingerprint: fingerprints[i]! });
      if (i % 4 !== 0) continue;
      const next = keys.generate({
        email: row.email,
        windows_username: null,
        computer_name: null,
        start_date: start,
        end_date: new Date(end.getTime() + DAY),
      });
      await database.db
        .update(licenses)
        .set({ license_key: next, end_date: new Date(end.getTime() + DAY) })
        .where(eq(licenses.id, row.id));
    }
  }
  return issued;
}
