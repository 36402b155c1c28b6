import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "./db/client.server";
import { accounts, licenses, profiles, releases, user_roles, users } from "./db/schema";
import { enrolWithSecret } from "./auth/two-factor.server";
import { recomputeFallback } from "./licenses/fallback.server";
import { seedDemoBilling } from "./seed-demo-billing.server";
import { demoLicenses } from "./seed-licenses.server";
import { seedSupportCustomers } from "./seed-support.server";
import { SEED_RELEASES } from "./seed-releases.server";
import { getEnv } from "./env.server";
import { demoInstallerFacts } from "./releases/demo-installer.server";

// The seeded releases and licenses are data files beside this one; callers import them from here.
export { demoLicenses } from "./seed-licenses.server";

/** The demo accounts created in embedded mode (printed by the start-up banner). */
export const DEMO_ACCOUNTS = [
  {
    role: "admin",
    email: "admin@forgekit.example",
    password: "admin-demo-1",
    fullName: "Avery Admin",
    company: "ForgeKit Ltd.",
    /** Enrolled in two-factor (admins must be): any authenticator app takes this base32 secret. */
    twoFactorSecret: "FORGEKITDEMOADMIN2FASECRET234567",
  },
  {
    role: "user",
    email: "demo@forgekit.example",
    password: "user-demo-1",
    fullName: "Dana Developer",
    company: "Northwind Tools",
    twoFactorSecret: null,
  },
] as const;

/**
 * Each demo password hashed once per process: the support customers share one, and a test file that
 * seeds before each test seeds again what it deleted (a scrypt hash is the seed's costliest step,
 * about half a second of a core). The demo passwords are public; their hashes gain nothing from a
 * salt of their own per seed.
 */
const demoHashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  if (!demoHashes.has(password)) demoHashes.set(password, hashPassword(password));
  return demoHashes.get(password)!;
};

/**
 * Demo content for embedded mode: releases, an admin and an ordinary user (e-mail
 * verified), and the ordinary user's licenses. Idempotent: what exists is left alone.
 */
export async function seedDemoData(db: Database, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    // Serialise concurrent seeds (several app servers on one PostgreSQL).
    await tx.execute(sql`select pg_advisory_xact_lock(727372002)`);
    for (const release of SEED_RELEASES) {
      const existing = await tx.select({ id: releases.id }).from(releases).where(eq(releases.version, release.version));
      if (existing.length > 0) continue;
      const { installer, ...row } = release;
      // The newest release points at the demo archive the site serves: the checksum the update check signs is its own.
      const facts = installer === "demo" ? demoInstallerFacts(getEnv()) : {};
      // Published on its release date (never later than now), so a seeded year of payments earns a fallback.
      const published_at = new Date(Math.min(now.getTime(), Date.parse(`${row.release_date}T12:00:00Z`)));
      await tx.insert(releases).values({ ...row, ...facts, published_at });
    }
    for (const account of DEMO_ACCOUNTS) {
      const existing = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${account.email}`);
      if (existing.length > 0) continue;
      const [user] = await tx
        .insert(users)
        .values({ name: account.fullName, email: account.email, emailVerified: true })
        .returning({ id: users.id });
      const userId = user!.id;
      await tx.insert(accounts).values({
        accountId: userId,
        providerId: "credential",
        userId,
        password: await hashOf(account.password),
      });
      await tx.insert(profiles).values({ id: userId, full_name: account.fullName, company_name: account.company });
      await tx.insert(user_roles).values({ user_id: userId, role: account.role });
      if (account.twoFactorSecret) await enrolWithSecret(tx, userId, account.twoFactorSecret);
      if (account.role === "user") {
        const rows = await tx
          .insert(licenses)
          .values(demoLicenses(userId, account.email, now))
          .returning();
        for (const license of rows) {
          await seedDemoBilling(tx, license);
          // The yearly license's paid year earns a fallback the card shows (decision 0066).
          await recomputeFallback(tx, license.id);
        }
      }
    }
    await seedSupportCustomers(tx, now, hashOf);
  });
}
