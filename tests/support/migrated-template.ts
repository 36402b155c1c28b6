// Migrate once: the integration tests copy an already migrated database instead of applying every
// migration to each new one (decision 0053). On PostgreSQL a template database on the test server,
// copied with CREATE DATABASE … TEMPLATE; on PGlite a dump of a migrated data directory, kept in the
// system's temporary folder and loaded with PGlite's `loadDataDir`. Both are named by a hash of the
// migrations folder, so a changed or added migration builds a new one, and branches with different
// migrations running tests on one server at once never share one.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrationsFolder, openDatabase } from "~/server/db/client.server";

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
  return hash.digest("hex").slice(0, 12);
}

/** The name of the migrated template database on TEST_DATABASE_URL's server. */
export function postgresTemplateName(): string {
  return `fk_template_${migrationsHash()}`;
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated template on the PostgreSQL server at `base`, built once: the first process to need
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
        const database = await openDatabase({ url: url.toString(), maxConnections: 1 });
        try {
          await database.migrate();
        } finally {
          await database.close();
        }
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

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A dump of a migrated in-memory PGlite, read from the temporary folder or built there once
 * (written under a name of its own and renamed, so a reader never sees half a file).
 */
export function migratedPgliteDump(): Promise<Blob> {
  pgliteTemplate ??= loadOrBuildPgliteDump().catch((error: unknown) => {
    pgliteTemplate = undefined;
    throw error;
  });
  return pgliteTemplate;
}

async function loadOrBuildPgliteDump(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `fk-pglite-template-${migrationsHash()}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const database = await openDatabase({ memory: true });
  let dump: Blob;
  try {
    await database.migrate();
    dump = await database.pglite!.dumpDataDir("none");
  } finally {
    await database.close();
  }
  const partial = `${file}.${process.pid}.${crypto.randomBytes(3).toString("hex")}`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, file);
  return dump;
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
