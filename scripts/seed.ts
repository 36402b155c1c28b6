// npm run db:seed: migrates, then seeds the demo content (idempotent) into the configured database.
import { openDatabase } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { getEnv } from "../app/server/env.server";
import { DEMO_ACCOUNTS, seedDemoData } from "../app/server/seed.server";

async function main() {
  const env = getEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await database.migrate();
    setDatabase(database);
    await seedDemoData(database.db);
    console.log("Demo content seeded. Accounts:");
    for (const account of DEMO_ACCOUNTS)
      console.log(
        `  ${account.role.padEnd(6)} ${account.email}  password: ${account.password}` +
          (account.twoFactorSecret ? `  two-factor secret (base32): ${account.twoFactorSecret}` : ""),
      );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
