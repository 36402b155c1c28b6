// Migrate once: the integration tests copy an already migrated database instead of applying every
// migration to each new one (decision 0053). On PostgreSQL a template database on the test server,
// copied with CREATE DATABASE … TEMPLATE; on PGlite a dump of a migrated data directory, kept in the
// system's temporary folder and loaded with PGlite's `loadDataDir`. Both are named by a hash of the
// migrations folder, so a changed or added migration builds a new one, and branches with different
// migrations running tests on one server at once never share one. On the way to the latest the build
// keeps a copy of the database at each earlier state a test starts from (EARLIER_STATES): one walk
// from nothing gives them all, instead of one walk per test that needs an older database.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrationsFolder, openDatabase } from "~/server/db/client.server";
import { firstMigrations, migrationCount, appliedBefore } from "./migrations";

/**
 * The earlier databases the tests start from, by how many of the migrations they have applied (the
 * first n): the migrations test's walks to the latest (the first migration, half-way, one behind), a
 * backup made by the code of two migrations ago, and the migrations with a test of what they do to
 * existing rows (before 0007, 0009, 0017, 0036). A test asking for another state gets an error naming
 * this list: adding one here costs the template build one copy, not a walk.
 */
export const EARLIER_STATES: readonly number[] = [
  ...new Set([
    1,
    appliedBefore("0007_license_keys"),
    appliedBefore("0009_license_short_id"),
    appliedBefore("0017_admin_search"),
    Math.ceil(migrationCount() / 2),
    appliedBefore("0036_perpetual_fallback"),
    migrationCount() - 2,
    migrationCount() - 1,
  ]),
].sort((a, b) => a - b);

function checkedState(n: number): number {
  if (!EARLIER_STATES.includes(n))
    throw new Error(
      `No copy of a database at migration ${n}: add it to EARLIER_STATES (tests/support/migrated-template.ts)`,
    );
  return n;
}

/** Any fixed number: only the processes building a template take it. */
const TEMPLATE_LOCK_ID = 727_372_053;

/** A short hash of the migrations (journal, SQL files) and the engine's version. */
export function migrationsHash(): string {
  const folder = migrationsFolder();
  const hash = crypto.createHash("sha256");
  hash.update(fs.readFileSync(path.join(folder, "meta", "_journal.json")));
  for (const file of fs
    .readdirSync(folder)
    .filter((name) => name.endsWith(".sql"))
    .sort()) {
    hash.update(file);
    hash.update(fs.readFileSync(path.join(folder, file)));
  }
  const pglite = JSON.parse(
    fs.readFileSync(path.join(folder, "..", "node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
  ) as { version: string };
  hash.update(pglite.version);
  // The copies kept on the way: a template built before a state was added has no copy of it.
  hash.update(`earlier states ${EARLIER_STATES.join(",")}`);
  return hash.digest("hex").slice(0, 12);
}

/** The name of the migrated template database on TEST_DATABASE_URL's server. */
export function postgresTemplateName(): string {
  return `fk_template_${migrationsHash()}`;
}

/**
 * What a site a test starts on `engine` gets as the template of its scratch database: on PostgreSQL
 * the migrated template, so its start migrates nothing (on PGlite startServer copies the migrated
 * data directory in).
 */
export async function siteTemplate(engine: "pglite" | "postgres"): Promise<string | undefined> {
  return engine === "postgres" ? migratedPostgresTemplate(process.env.TEST_DATABASE_URL!) : undefined;
}

let postgresTemplate: Promise<string> | undefined;

/** The template of a database at the first `n` migrations (one of EARLIER_STATES) on the server at `base`. */
export async function postgresTemplateAt(base: string, n: number): Promise<string> {
  checkedState(n);
  return `${await migratedPostgresTemplate(base)}_at_${n}`;
}

/**
 * The migrated template on the PostgreSQL server at `base`, built once (with the earlier states'
 * templates, `<name>_at_<n>`, copied on the way): the first process to need
 * it builds it under an advisory lock, under a name of its own, and renames it when it is complete,
 * so a template with the final name is always fully migrated and nobody ever connects to it.
 */
export function migratedPostgresTemplate(base: string): Promise<string> {
  postgresTemplate ??= buildPostgresTemplate(base).catch((error: unknown) => {
    postgresTemplate = undefined;
    throw error;
  });
  return postgresTemplate;
}

async function buildPostgresTemplate(base: string): Promise<string> {
  const name = postgresTemplateName();
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  const exists = async () =>
    ((await client.query("select 1 from pg_database where datname = $1", [name])).rowCount ?? 0) > 0;
  try {
    if (await exists()) return name;
    await client.query("select pg_advisory_lock($1)", [TEMPLATE_LOCK_ID]);
    try {
      if (await exists()) return name;
      const building = `${name}_b${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
      await client.query(`create database ${building}`);
      try {
        const url = new URL(base);
        url.pathname = `/${building}`;
        const migrate = async (folder?: string) => {
          const database = await openDatabase({ url: url.toString(), maxConnections: 1 });
          try {
            await database.migrate(folder);
          } finally {
            await database.close();
          }
        };
        for (const n of EARLIER_STATES) {
          await migrateInto(migrate, n);
          // Left by a build that failed half-way; nobody uses a state before the final name exists.
          await client.query(`drop database if exists ${name}_at_${n} with (force)`);
          await client.query(`create database ${name}_at_${n} template ${building}`);
        }
        await migrate();
        await client.query(`alter database ${building} rename to ${name}`);
      } catch (error) {
        await client.query(`drop database if exists ${building} with (force)`);
        if (!(await exists())) throw error;
      }
      return name;
    } finally {
      await client.query("select pg_advisory_unlock($1)", [TEMPLATE_LOCK_ID]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}

/** Migrates to the first n migrations through a folder holding only those, removed after. */
async function migrateInto(migrate: (folder: string) => Promise<void>, n: number): Promise<void> {
  const folder = firstMigrations(n);
  try {
    await migrate(folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

let pgliteTemplate: Promise<Blob> | undefined;
const pgliteStates = new Map<number, Blob>();

const pgliteDumpFile = (n?: number) =>
  path.join(os.tmpdir(), `fk-pglite-template-${migrationsHash()}${n === undefined ? "" : `-at-${n}`}.tar`);

/** A dump of an in-memory PGlite at the first `n` migrations (one of EARLIER_STATES), for `loadDataDir`. */
export async function pgliteDumpAt(n: number): Promise<Blob> {
  checkedState(n);
  await migratedPgliteDump();
  let dump = pgliteStates.get(n);
  if (!dump) {
    dump = new Blob([fs.readFileSync(pgliteDumpFile(n))]);
    pgliteStates.set(n, dump);
  }
  return dump;
}

/**
 * A dump of a migrated in-memory PGlite, read from the temporary folder or built there once
 * (written under a name of its own and renamed, so a reader never sees half a file; the earlier
 * states' dumps first, so the final one's presence means all are there).
 */
export function migratedPgliteDump(): Promise<Blob> {
  pgliteTemplate ??= loadOrBuildPgliteDump().catch((error: unknown) => {
    pgliteTemplate = undefined;
    throw error;
  });
  return pgliteTemplate;
}

async function loadOrBuildPgliteDump(): Promise<Blob> {
  const file = pgliteDumpFile();
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const database = await openDatabase({ memory: true });
  const keep = async (target: string) => {
    const dump = await database.pglite!.dumpDataDir("none");
    const partial = `${target}.${process.pid}.${crypto.randomBytes(3).toString("hex")}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, target);
    return dump;
  };
  try {
    for (const n of EARLIER_STATES) {
      await migrateInto((folder) => database.migrate(folder), n);
      pgliteStates.set(n, await keep(pgliteDumpFile(n)));
    }
    await database.migrate();
    return await keep(file);
  } finally {
    await database.close();
  }
}

let pgliteDataDir: Promise<string> | undefined;

/**
 * A migrated embedded data directory (its `pglite/` folder) for the servers the tests start on
 * PGlite: built once from the dump above, kept beside it, renamed into place when complete.
 */
function migratedPgliteDataDir(): Promise<string> {
  pgliteDataDir ??= loadOrBuildPgliteDataDir().catch((error: unknown) => {
    pgliteDataDir = undefined;
    throw error;
  });
  return pgliteDataDir;
}

async function loadOrBuildPgliteDataDir(): Promise<string> {
  const dir = path.join(os.tmpdir(), `fk-pglite-datadir-${migrationsHash()}`);
  if (fs.existsSync(dir)) return path.join(dir, "pglite");
  const building = `${dir}.${process.pid}.${crypto.randomBytes(3).toString("hex")}`;
  const database = await openDatabase({ dataDir: building, loadDataDir: await migratedPgliteDump() });
  await database.close();
  try {
    fs.renameSync(building, dir);
  } catch (error) {
    // Another process renamed its copy first: use that one.
    fs.rmSync(building, { recursive: true, force: true });
    if (!fs.existsSync(dir)) throw error;
  }
  return path.join(dir, "pglite");
}

/**
 * Gives an empty data directory a copy of the migrated embedded database, so a server started on it
 * applies no migration (decision 0053: migrate once). A directory that holds a database already (a
 * restart, a restored backup) is left as it is.
 */
export async function withMigratedEmbeddedDatabase(dataDir: string): Promise<void> {
  const target = path.join(dataDir, "pglite");
  if (fs.existsSync(target)) return;
  fs.cpSync(await migratedPgliteDataDir(), target, { recursive: true });
}
