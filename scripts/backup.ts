// npm run backup -- [file or directory]: a consistent backup of the running site with the secrets it
// runs with (docs/operations.md#backups-and-restore). On the embedded PGlite the running site takes
// the dump (PGlite's dumpDataDir) and hands it over its local socket DATA_DIR/backup.sock; with
// DATABASE_URL, pg_dump (custom format). The file's name always ends in -with-secrets.tar.gz.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { backupPath, currentSecrets, packBackup, writeBackupFile } from "../app/server/backup/archive.server";
import { backupSocketPath } from "../server/backup-socket";
import { checkTool, connectionFor, runTool, serverMajor } from "./lib/pg-tools";

const dataDir = () => process.env.DATA_DIR?.trim() || "./data";

/** Asks the running site for its archive over the backup socket. */
function fromRunningSite(socketPath: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.createConnection(socketPath, () => socket.write("backup\n"));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        ["ENOENT", "ECONNREFUSED"].includes(error.code ?? "")
          ? new Error(
              `No running site answers on ${socketPath}. The embedded database is backed up through the running ` +
                `site: start it (same DATA_DIR), or, with the site stopped, copy the whole DATA_DIR.`,
            )
          : error,
      );
    });
    socket.on("end", () => {
      const answer = Buffer.concat(chunks);
      const newline = answer.indexOf(10);
      const status = answer.subarray(0, newline < 0 ? answer.length : newline).toString("utf8");
      const body = answer.subarray(newline + 1);
      const ok = /^OK (\d+)$/.exec(status);
      if (!ok) return reject(new Error(`the site could not take the backup: ${status.replace(/^ERROR /, "")}`));
      if (body.length !== Number(ok[1])) return reject(new Error("the backup was cut short; try again"));
      resolve(body);
    });
  });
}

/** pg_dump's custom format of the database at `url`. */
async function fromPostgres(url: string): Promise<Buffer> {
  checkTool("pg_dump", await serverMajor(url));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fk-backup-"));
  try {
    const file = path.join(dir, "database.pgdump");
    const { dbname, env } = connectionFor(url);
    runTool("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, `--dbname=${dbname}`], env);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length > 1 || args.some((a) => a.startsWith("-"))) {
    console.error("Usage: npm run backup -- [file or directory]");
    process.exit(2);
  }
  const file = backupPath(args[0]);
  if (fs.existsSync(file)) throw new Error(`${file} exists already; give another name`);
  const url = process.env.DATABASE_URL?.trim();
  const archive = url
    ? packBackup("postgres", currentSecrets(process.env, dataDir()), await fromPostgres(url))
    : await fromRunningSite(backupSocketPath(dataDir()));
  writeBackupFile(file, archive);
  console.log(
    `Backup written to ${file} (${archive.length} bytes, ${url ? "PostgreSQL" : "embedded database"}).\n` +
      "It holds the site's secrets and signing key: keep it as safe as the site itself.",
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
