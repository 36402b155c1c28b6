// npm run restore -- <file> [--force]: puts a backup (npm run backup) back into an empty data
// directory (DATA_DIR, embedded database) or an empty PostgreSQL database (DATABASE_URL), with its
// secrets in DATA_DIR/secrets.json; refuses a non-empty one unless --force. Then start the site: it
// applies the migrations newer than the backup (docs/operations.md#backups-and-restore).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { BackupError, unpackBackup, type Backup, type BackupSecrets } from "../app/server/backup/archive.server";
import { acquireDataDirLock } from "../app/server/db/lock.server";
import { makeTreePrivate } from "../app/server/db/private-files.server";
import { checkTool, connectionFor, runTool, serverMajor } from "./lib/pg-tools";

const USAGE = "Usage: npm run restore -- <backup file> [--force]";

class RefusedError extends Error {}

function secretsFile(dataDir: string): string {
  return path.join(dataDir, "secrets.json");
}

function writeSecrets(dataDir: string, secrets: BackupSecrets): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(secretsFile(dataDir), `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(secretsFile(dataDir), 0o600);
}

async function restorePglite(backup: Backup, dataDir: string, force: boolean): Promise<void> {
  // Refuses while the site (or anything else) has the data directory open.
  const lock = acquireDataDirLock(dataDir);
  try {
    const target = path.join(dataDir, "pglite");
    const used = (fs.existsSync(target) && fs.readdirSync(target).length > 0) || fs.existsSync(secretsFile(dataDir));
    if (used && !force) {
      throw new RefusedError(
        `${path.resolve(dataDir)} already holds a database or secrets. Restore into an empty DATA_DIR, ` +
          "or add --force to replace them.",
      );
    }
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    const db = await PGlite.create(target, {
      loadDataDir: new Blob([new Uint8Array(backup.database)]),
      extensions: { pg_trgm },
    });
    await db.query("select 1");
    await db.close();
    makeTreePrivate(target);
    writeSecrets(dataDir, backup.secrets);
  } finally {
    lock.release();
  }
}

/** Schemas besides PostgreSQL's own and an empty public: what makes a database non-empty. */
async function usedSchemas(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`
    select n.nspname as name from pg_namespace n
    where n.nspname not in ('information_schema', 'public') and n.nspname not like 'pg\\_%'
       or (n.nspname = 'public' and exists (select 1 from pg_class c where c.relnamespace = n.oid))`);
  return rows.map((row) => row.name);
}

async function restorePostgres(backup: Backup, url: string, dataDir: string, force: boolean): Promise<void> {
  checkTool("pg_restore", await serverMajor(url));
  if (fs.existsSync(secretsFile(dataDir)) && !force) {
    throw new RefusedError(`${secretsFile(dataDir)} exists already. Add --force to replace it.`);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const used = await usedSchemas(client);
    if (used.length > 0 && !force) {
      throw new RefusedError(
        `The database is not empty (schemas ${used.join(", ")}). Restore into an empty database, or add ` +
          "--force to drop what it holds first.",
      );
    }
    for (const schema of used) await client.query(`drop schema if exists "${schema.replace(/"/g, '""')}" cascade`);
    await client.query("create schema if not exists public");
  } finally {
    await client.end();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fk-restore-"));
  try {
    const file = path.join(dir, "database.pgdump");
    fs.writeFileSync(file, backup.database, { mode: 0o600 });
    const { dbname, env } = connectionFor(url);
    runTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${dbname}`, file], env);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  writeSecrets(dataDir, backup.secrets);
}

/** Secrets the environment gives override secrets.json: say which differ from the backup's. */
function warnOverridden(secrets: BackupSecrets): void {
  const differ = Object.keys(secrets).filter((name) => {
    const given = process.env[name]?.trim();
    return given && given.replace(/\\n/g, "\n") !== secrets[name];
  });
  if (differ.length > 0) {
    console.warn(
      `Warning: the environment sets ${differ.join(", ")} to other values than the backup's; the site uses ` +
        "the environment's. Set them to the backup's values (in secrets.json) or sessions, license keys and " +
        "signatures will not work as before.",
    );
  }
}

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const files = args.filter((a) => a !== "--force");
  if (files.length !== 1 || files[0]!.startsWith("-")) {
    console.error(USAGE);
    process.exit(2);
  }
  if (!fs.existsSync(files[0]!)) throw new RefusedError(`${files[0]} does not exist`);
  const backup = unpackBackup(fs.readFileSync(files[0]!));
  const url = process.env.DATABASE_URL?.trim();
  const dataDir = process.env.DATA_DIR?.trim() || "./data";
  if (backup.manifest.engine === "postgres" && !url) {
    throw new RefusedError(
      "This is a backup of a PostgreSQL database: set DATABASE_URL to the database to restore into.",
    );
  }
  if (backup.manifest.engine === "pglite" && url) {
    throw new RefusedError(
      "This is a backup of the embedded database: unset DATABASE_URL and set DATA_DIR to restore it into.",
    );
  }
  if (url) await restorePostgres(backup, url, dataDir, force);
  else await restorePglite(backup, dataDir, force);
  warnOverridden(backup.secrets);
  console.log(
    `Restored the backup of ${backup.manifest.createdAt} into ${url ? "the PostgreSQL database" : path.resolve(dataDir)}` +
      ` and its secrets into ${path.resolve(secretsFile(dataDir))}. Start the site: it applies newer migrations.`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof RefusedError || error instanceof BackupError ? 2 : 1);
});
