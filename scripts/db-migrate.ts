// npm run db:migrate: applies pending migrations to the configured database
// (DATABASE_URL, or the embedded one in DATA_DIR — which must not be in use by the site).
import { openDatabase } from "../app/server/db/client.server";
import { getEnv } from "../app/server/env.server";

async function main() {
  const env = getEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await database.migrate();
    console.log(`Migrations applied (${env.DATABASE_URL ? "PostgreSQL" : `embedded database in ${env.DATA_DIR}`}).`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
