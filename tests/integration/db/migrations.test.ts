import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { verifyPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirLockedError, acquireDataDirLock } from "~/server/db/lock.server";
import { migrationsFolder, openDatabase } from "~/server/db/client.server";
import { accounts, licenses, profiles, releases, user_roles, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { pgliteDumpAt, postgresTemplateAt } from "../../support/migrated-template";
import { createScratchDatabase } from "../../support/scratch";
import { startTestApp, testEngines, type EngineName, type TestApp } from "../../support/test-app";

const ENGINES = testEngines({
  pglite: "always",
  because: "migrations, the demo seed and the data directory on the embedded engine",
});

const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

describe.each(ENGINES)("migrations on %s", (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // Every migration applied for real to an empty database (not a copy of the migrated template).
    app = await startTestApp(engine, {}, { migrationsFolder: migrationsFolder() });
  });
  afterAll(async () => app?.close());

  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  it("an empty database reaches the latest migration, and migrating again changes nothing", async () => {
    const applied = await rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied[0]!.n).toBe(journal.entries.length);
    await app.database.migrate();
    const again = await rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(again[0]!.n).toBe(journal.entries.length);
  });

  it("has the original tables and columns", async () => {
    const columns = await rows<{ table_name: string; column_name: string }>(
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`,
    );
    const of = (table: string) => columns.filter((c) => c.table_name === table).map((c) => c.column_name);
    expect(of("licenses")).toEqual(
      expect.arrayContaining([
        "id",
        "user_id",
        "email",
        "license_key",
        "license_type",
        "status",
        "start_date",
        "end_date",
        "windows_username",
        "computer_name",
        "is_trial",
        "trial_starts_at",
        "trial_ends_at",
        "auto_renew",
        "cancellation_requested",
        "cancellation_requested_at",
        "paddle_subscription_id",
        "purchase_date",
        "refund_eligible_until",
        "refunded",
        "refund_amount",
        "refunded_at",
        "created_at",
      ]),
    );
    expect(of("profiles")).toEqual(expect.arrayContaining(["id", "full_name", "company_name", "created_at"]));
    expect(of("user_roles")).toEqual(expect.arrayContaining(["user_id", "role"]));
    expect(of("releases")).toEqual(expect.arrayContaining(["id", "version", "title", "release_date", "release_notes"]));
  });

  it("has the indexes for the pages' reads, trigram ones included", async () => {
    const indexes = await rows<{ indexname: string; indexdef: string }>(
      sql`select indexname, indexdef from pg_indexes where schemaname = 'public'`,
    );
    const names = indexes.map((i) => i.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        "licenses_user_id_created_at_idx",
        "licenses_email_idx",
        "releases_release_date_idx",
        "profiles_full_name_trgm_idx",
        "licenses_email_trgm_idx",
      ]),
    );
    expect(indexes.find((i) => i.indexname === "profiles_full_name_trgm_idx")!.indexdef).toContain("gin_trgm_ops");
  });

  it("check constraints refuse values outside the enumerations", async () => {
    const [user] = await app.database.db
      .insert(users)
      .values({ email: `c-${engine}@example.com` })
      .returning();
    const license = { user_id: user!.id, email: "c@example.com", license_key: "k", end_date: new Date() };
    await expect(
      app.database.db.insert(licenses).values({ ...license, license_type: "lifetime" as never }),
    ).rejects.toThrow();
    await expect(
      app.database.db.insert(licenses).values({ ...license, license_type: "monthly", status: "paused" as never }),
    ).rejects.toThrow();
    await expect(
      app.database.db.insert(user_roles).values({ user_id: user!.id, role: "owner" as never }),
    ).rejects.toThrow();
    await app.database.db.insert(licenses).values({ ...license, license_type: "monthly", start_date: new Date(0) });
  });
});

/**
 * Three starting points, not every one: the oldest database (the first migration alone), one half-way,
 * and one a single migration behind. What one migration does to existing rows is its own test's
 * (`startTestApp(engine, {}, { before: tag })`). Each starts from the copy of that state the migrated
 * template's build keeps (tests/support/migrated-template.ts), not from a walk of its own up to it.
 */
const STARTING_POINTS = [1, Math.ceil(journal.entries.length / 2), journal.entries.length - 1];

/**
 * A copy of the database at the first n migrations, and what closes it. On PGlite next to PostgreSQL
 * the walk from the first migration is left to PostgreSQL: on the embedded engine the empty database's
 * walk above applies the same migrations, and the template's build walks there from the first one.
 */
async function databaseAt(engine: EngineName, n: number) {
  if (engine === "pglite") {
    const database = await openDatabase({ memory: true, loadDataDir: await pgliteDumpAt(n) });
    return { database, close: () => database.close() };
  }
  const base = process.env.TEST_DATABASE_URL!;
  const scratch = await createScratchDatabase(base, "walk", await postgresTemplateAt(base, n));
  const database = await openDatabase({ url: scratch.url, maxConnections: 2 });
  return {
    database,
    close: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

describe.each(ENGINES)("a database at an earlier migration on %s", (engine) => {
  const points = engine === "pglite" && ENGINES.includes("postgres") ? STARTING_POINTS.slice(1) : STARTING_POINTS;
  it.each(points)("reaches the latest from migration %i", async (n) => {
    const { database, close } = await databaseAt(engine, n);
    const applied = async () =>
      (
        (await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    try {
      expect(await applied()).toBe(n);
      await database.migrate();
      expect(await applied()).toBe(journal.entries.length);
    } finally {
      await close();
    }
  });
});

describe.each(ENGINES)("demo seed on %s", (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    await seedDemoData(app.database.db);
  });
  afterAll(async () => app?.close());

  it("creates at least five releases with titles and notes", async () => {
    const all = await app.database.db.select().from(releases);
    expect(all.length).toBeGreaterThanOrEqual(5);
    for (const release of all) {
      expect(release.title).toBeTruthy();
      expect(release.release_notes.length).toBeGreaterThan(0);
    }
  });

  it("creates a verified admin and a verified user, with profiles, roles and working passwords", async () => {
    for (const account of DEMO_ACCOUNTS) {
      const [row] = await app.database.db
        .select({
          verified: users.emailVerified,
          role: user_roles.role,
          name: profiles.full_name,
          hash: accounts.password,
        })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .innerJoin(user_roles, eq(user_roles.user_id, users.id))
        .innerJoin(accounts, eq(accounts.userId, users.id))
        .where(eq(users.email, account.email));
      expect(row).toMatchObject({ verified: true, role: account.role, name: account.fullName });
      expect(await verifyPassword({ hash: row!.hash!, password: account.password })).toBe(true);
    }
  });

  it("gives the user one license in each state the licenses page distinguishes", async () => {
    const [user] = await app.database.db.select().from(users).where(eq(users.email, "demo@forgekit.example"));
    const rows = await app.database.db.select().from(licenses).where(eq(licenses.user_id, user!.id));
    const now = Date.now();
    const has = (label: string, test: (l: (typeof rows)[number]) => boolean) =>
      expect(rows.filter(test), label).toHaveLength(1);
    const ahead = (d: Date | null) => Boolean(d && d.getTime() > now);
    has(
      "active renewing",
      (l) => l.status === "active" && !l.is_trial && l.license_type !== "tester" && l.auto_renew && ahead(l.end_date),
    );
    has("cancellation requested", (l) => l.status === "active" && l.cancellation_requested && ahead(l.end_date));
    has("trial active", (l) => l.is_trial && ahead(l.trial_ends_at));
    has("trial expired", (l) => l.is_trial && !ahead(l.trial_ends_at));
    has("expired", (l) => l.status === "active" && !l.is_trial && !ahead(l.end_date));
    has("revoked", (l) => l.status === "revoked");
    has("refund requested", (l) => l.status === "refund_requested");
    has("refunded", (l) => l.status === "refunded" && l.refunded && l.refund_amount === 4703);
    has("tester", (l) => l.license_type === "tester");
    expect(rows).toHaveLength(9);
  });

  it("is idempotent", async () => {
    const count = async () =>
      Promise.all(
        [users, releases, licenses, profiles, user_roles].map(
          async (t) => (await app.database.db.select().from(t)).length,
        ),
      );
    const before = await count();
    await seedDemoData(app.database.db);
    expect(await count()).toEqual(before);
  });
});

describe("the embedded data directory's lock", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fk-lock-"));
  });

  it("refuses a second opener, naming the process that holds it", async () => {
    const first = await openDatabase({ dataDir: dir });
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`pid ${process.pid}`);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it("takes over a lock left by a process that is gone", () => {
    fs.writeFileSync(path.join(dir, "pglite.lock"), "999999999");
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(dir, "pglite.lock"))).toBe(false);
  });

  it("a second server on the same directory exits at once with a message naming the holder", async () => {
    const buildDir = process.env.BUILD_DIR ?? "build-test";
    if (!fs.existsSync(path.join(buildDir, "server", "index.js")))
      throw new Error(`needs a build in ${buildDir}/ (npm test makes it)`);
    const lock = acquireDataDirLock(dir);
    try {
      const child = spawn(process.execPath, ["server.js"], {
        env: { ...process.env, BUILD_DIR: buildDir, DATA_DIR: dir, PORT: "0", LOG_LEVEL: "silent" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      // It does not wait for the lock: the test's time limit would catch a wait.
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(code).not.toBe(0);
      expect(output).toContain(`in use by another process (pid ${process.pid})`);
    } finally {
      lock.release();
    }
  });

  it("a running server stops cleanly on SIGTERM and releases the directory", async () => {
    const buildDir = process.env.BUILD_DIR ?? "build-test";
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "fk-stop-"));
    const child = spawn(process.execPath, ["server.js"], {
      env: { ...process.env, BUILD_DIR: buildDir, DATA_DIR: own, PORT: "0", LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (d) => (output += d));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d) => {
        output += d;
        const match = /running at (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.on("exit", () => reject(new Error(`server exited early:\n${output}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(fs.existsSync(path.join(own, "pglite.lock"))).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(own, "pglite.lock"))).toBe(false);
  });
});
