// npm run create-admin -- <email>: gives an existing account the admin role (a production
// operator's first admin). Uses the configured database; with the embedded database the
// site must be stopped first (the data-directory lock says so).
import { sql } from "drizzle-orm";
import { openDatabase } from "../app/server/db/client.server";
import { user_roles, users } from "../app/server/db/schema";
import { getEnv } from "../app/server/env.server";
import { SESSIONS_CHANNEL } from "../app/server/cache/caches.server";

async function main() {
  const email = process.argv[2]?.trim().toLowerCase();
  if (!email || process.argv.length > 3) {
    console.error("Usage: npm run create-admin -- <email>");
    process.exit(2);
  }
  const env = getEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await database.migrate();
    const [user] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    if (!user) {
      console.error(`No account with the e-mail address ${email}. Register it on the site first.`);
      process.exitCode = 1;
      return;
    }
    await database.db
      .insert(user_roles)
      .values({ user_id: user.id, role: "admin" })
      .onConflictDoUpdate({ target: user_roles.user_id, set: { role: "admin" } });
    // Running app servers on PostgreSQL forget the sessions they remember for this account.
    await database.db.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${user.id})`);
    console.log(
      `${email} is now an admin. On the first visit to /admin they are asked to turn on two-factor authentication on their profile.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
