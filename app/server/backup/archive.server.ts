import fs from "node:fs";
import path from "node:path";
import { SECRET_NAMES } from "../env.server";
import { readTarGz, writeTarGz } from "./tar.server";

/**
 * A backup archive (`npm run backup`): a gzipped tar holding
 * - manifest.json — the format, the engine, when it was taken;
 * - secrets.json — the secrets the site ran with (session, license-key and webhook secrets, the
 *   license signing key), in the shape of DATA_DIR/secrets.json;
 * - the database: pglite.tar.gz (PGlite's own dump of its data directory) or database.pgdump
 *   (pg_dump's custom format).
 * Its file name always ends in -with-secrets.tar.gz: whoever holds it can sign licenses.
 */

export const BACKUP_SUFFIX = "-with-secrets.tar.gz";
export const BACKUP_FORMAT = "forgekit-backup/1";

export type BackupEngine = "pglite" | "postgres";
export type BackupSecrets = Record<string, string>;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  engine: BackupEngine;
  createdAt: string;
  /** The secrets the archive holds, by name (their values are in secrets.json). */
  secrets: string[];
}

export interface Backup {
  manifest: BackupManifest;
  secrets: BackupSecrets;
  database: Buffer;
}

const DATABASE_FILE: Record<BackupEngine, string> = { pglite: "pglite.tar.gz", postgres: "database.pgdump" };

export function packBackup(engine: BackupEngine, secrets: BackupSecrets, database: Buffer, now = new Date()): Buffer {
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    engine,
    createdAt: now.toISOString(),
    secrets: Object.keys(secrets).sort(),
  };
  return writeTarGz(
    [
      { name: "manifest.json", content: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      { name: "secrets.json", content: Buffer.from(`${JSON.stringify(secrets, null, 2)}\n`) },
      { name: DATABASE_FILE[engine], content: database },
    ],
    now,
  );
}

export class BackupError extends Error {
  override name = "BackupError";
}

export function unpackBackup(archive: Buffer): Backup {
  let files: Map<string, Buffer>;
  try {
    files = readTarGz(archive);
  } catch (error) {
    throw new BackupError(`not a backup archive (${(error as Error).message})`);
  }
  const json = (name: string) => {
    const file = files.get(name);
    if (!file) throw new BackupError(`not a backup archive: ${name} is missing`);
    try {
      return JSON.parse(file.toString("utf8")) as unknown;
    } catch {
      throw new BackupError(`not a backup archive: ${name} is not JSON`);
    }
  };
  const manifest = json("manifest.json") as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || !(manifest.engine in DATABASE_FILE)) {
    throw new BackupError(`not a backup this version can restore (format ${String(manifest.format)})`);
  }
  const database = files.get(DATABASE_FILE[manifest.engine]);
  if (!database) throw new BackupError(`the archive has no ${DATABASE_FILE[manifest.engine]}`);
  return { manifest, secrets: json("secrets.json") as BackupSecrets, database };
}

/** The secrets a site on `source`'s environment runs with: given ones, else DATA_DIR/secrets.json's. */
export function currentSecrets(source: Record<string, string | undefined>, dataDir: string): BackupSecrets {
  const file = path.join(dataDir, "secrets.json");
  const stored = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as BackupSecrets) : {};
  const secrets: BackupSecrets = {};
  for (const name of [...SECRET_NAMES, "LICENSE_PUBLISHED_KEYS"]) {
    const value = source[name]?.trim() || stored[name];
    if (value) secrets[name] = name.endsWith("_KEY") || name.endsWith("_KEYS") ? value.replace(/\\n/g, "\n") : value;
  }
  return secrets;
}

/**
 * Where to write: a directory (or nothing: the current one) gets forgekit-backup-<time>-with-secrets.tar.gz;
 * a file name not ending in -with-secrets.tar.gz gets that ending.
 */
export function backupPath(given: string | undefined, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const target = given ?? ".";
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
    return path.join(target, `forgekit-backup-${stamp}${BACKUP_SUFFIX}`);
  }
  if (target.endsWith(BACKUP_SUFFIX)) return target;
  return `${target.replace(/\.tar\.gz$|\.tgz$/, "")}${BACKUP_SUFFIX}`;
}

/** Writes the archive readable by its owner only, never over an existing file. */
export function writeBackupFile(file: string, archive: Buffer): void {
  fs.writeFileSync(file, archive, { mode: 0o600, flag: "wx" });
}
