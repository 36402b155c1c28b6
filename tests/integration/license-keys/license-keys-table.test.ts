import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { license_keys, licenses } from "~/server/db/schema";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

const MIGRATION_ENGINES = testEngines({ pglite: "always", because: "a migration, on both engines" });

const hash = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

const base = (userId: string, email: string) => ({
  user_id: userId,
  email,
  license_type: "yearly" as const,
  end_date: new Date(Date.now() + 86_400_000),
});

describe.each(testEngines())("license_keys: every key issued is recorded against its license (%s)", (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(async () => app?.close());

  const keysOf = async (licenseId: string) =>
    (await app.database.db.select().from(license_keys).where(eq(license_keys.license_id, licenseId)))
      .map((row) => row.key_hash)
      .sort();

  it("records the key of an inserted license and each new key an update writes, once", async () => {
    const user = await createUser(app.database.db, "keys@example.com");
    const [row] = await app.database.db
      .insert(licenses)
      .values({ ...base(user.id, user.email), license_key: "first-key" })
      .returning();
    expect(await keysOf(row!.id)).toEqual([hash("first-key")]);

    await app.database.db.update(licenses).set({ license_key: "second-key" }).where(eq(licenses.id, row!.id));
    // An update that leaves the key alone adds nothing.
    await app.database.db.update(licenses).set({ auto_renew: true }).where(eq(licenses.id, row!.id));
    await app.database.db.update(licenses).set({ license_key: "second-key" }).where(eq(licenses.id, row!.id));
    expect(await keysOf(row!.id)).toEqual([hash("first-key"), hash("second-key")].sort());

    // Deleting the license deletes its keys.
    await app.database.db.delete(licenses).where(eq(licenses.id, row!.id));
    expect(await keysOf(row!.id)).toEqual([]);
  });

  it("finds a license by any key in one indexed lookup", async () => {
    const plan = (await app.database.db.execute(
      sql`explain select l.id from license_keys k join licenses l on l.id = k.license_id where k.key_hash = ${hash("x")}`,
    )) as unknown as { rows: Record<string, string>[] };
    const text = plan.rows.map((r) => Object.values(r)[0]).join("\n");
    expect(text).toMatch(/Index Scan using license_keys_pkey/);
  });
});

describe.each(MIGRATION_ENGINES)("license_keys backfill of an existing database (%s)", (engine) => {
  it("records the current key of every license that existed before the migration", async () => {
    const app = await startTestApp(engine, {}, { before: "0007_license_keys" });
    try {
      // A raw insert: the schema's users table has columns later migrations add.
      const user = (
        (await app.database.db.execute(
          sql`insert into users (email, name, email_verified) values (${"old@example.com"}, 'Old User', true) returning id, email`,
        )) as unknown as { rows: { id: string; email: string }[] }
      ).rows[0]!;
      // Written before the trigger exists (as the old site's licenses were).
      await app.database.db.execute(
        sql`insert into licenses (user_id, email, license_type, end_date, license_key)
            values (${user.id}, ${user.email}, 'monthly', now() + interval '1 day', 'old-key')`,
      );
      await app.database.migrate();
      const recorded = (await app.database.db.execute(
        sql`select k.key_hash, l.license_key from license_keys k join licenses l on l.id = k.license_id`,
      )) as unknown as { rows: { key_hash: string; license_key: string }[] };
      expect(recorded.rows).toEqual([{ key_hash: hash("old-key"), license_key: "old-key" }]);
    } finally {
      await app.close();
    }
  });
});
