import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHORT_ID_PATTERN } from "~/domain/short-id";
import { licenses } from "~/server/db/schema";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

const MIGRATION_ENGINES = testEngines({ pglite: "always", because: "a migration, on both engines" });

const tomorrow = () => new Date(Date.now() + 86_400_000);
const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe.each(testEngines())("license short ids (%s)", (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(async () => {
    await app.close();
  });

  it("gives every new license its own FK-XXXX-XXXX id, whatever path inserts it", async () => {
    const user = await createUser(app.database.db, "short@example.com");
    const inserted = await app.database.db
      .insert(licenses)
      .values(
        Array.from({ length: 50 }, () => ({
          user_id: user.id,
          email: user.email,
          license_key: "k",
          license_type: "monthly" as const,
          end_date: new Date(Date.now() + 86_400_000),
        })),
      )
      .returning({ short_id: licenses.short_id });
    for (const row of inserted) expect(row.short_id).toMatch(SHORT_ID_PATTERN);
    expect(new Set(inserted.map((row) => row.short_id)).size).toBe(50);
  });

  it("refuses a second license with a short id already taken", async () => {
    const user = await createUser(app.database.db, "dup@example.com");
    const [first] = await app.database.db
      .insert(licenses)
      .values({ user_id: user.id, email: user.email, license_key: "a", license_type: "monthly", end_date: tomorrow() })
      .returning({ short_id: licenses.short_id });
    await expect(
      app.database.db.insert(licenses).values({
        user_id: user.id,
        email: user.email,
        license_key: "b",
        license_type: "monthly",
        end_date: tomorrow(),
        short_id: first!.short_id,
      }),
    ).rejects.toMatchObject({ cause: { constraint: "licenses_short_id_unique" } });
  });
});

describe.each(MIGRATION_ENGINES)("license short ids for an existing database (%s)", (engine) => {
  it("gives the licenses that existed before the migration a short id each", async () => {
    const app = await startTestApp(engine, {}, { before: "0009_license_short_id" });
    try {
      // A raw insert: the schema's users table has columns later migrations add.
      const user = (
        (await app.database.db.execute(
          sql`insert into users (email, name, email_verified) values (${"old-short@example.com"}, 'Old User', true) returning id, email`,
        )) as unknown as { rows: { id: string; email: string }[] }
      ).rows[0]!;
      for (const key of ["one", "two", "three"])
        await app.database.db.execute(
          sql`insert into licenses (user_id, email, license_type, end_date, license_key)
              values (${user.id}, ${user.email}, 'monthly', now() + interval '1 day', ${key})`,
        );
      await app.database.migrate();
      const found = rows<{ short_id: string }>(await app.database.db.execute(sql`select short_id from licenses`));
      expect(found).toHaveLength(3);
      for (const row of found) expect(row.short_id).toMatch(SHORT_ID_PATTERN);
      expect(new Set(found.map((row) => row.short_id)).size).toBe(3);
    } finally {
      await app.close();
    }
  });
});
