import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Logger } from "pino";
import { currentSecrets, packBackup } from "../app/server/backup/archive.server";

/**
 * `npm run backup` on the embedded database: PGlite is one process, so the running site takes the
 * dump itself (PGlite's dumpDataDir, with no transaction open) and hands the archive to the backup
 * command over a Unix socket in the data directory, DATA_DIR/backup.sock. Never a TCP port: only a
 * process on this machine running as the site's user can reach it, since DATA_DIR is 0700 and the
 * socket 0600 (whoever can open it can read secrets.json beside it anyway). The command writes one
 * line, `backup`; the site answers `OK <bytes>` and the archive, or `ERROR <message>`.
 */

export const BACKUP_SOCKET = "backup.sock";

export function backupSocketPath(dataDir: string): string {
  return path.resolve(dataDir, BACKUP_SOCKET);
}

/** The archive of the running site: its database and the secrets it runs with. */
export async function takeBackup(pglite: PGlite, dataDir: string): Promise<Buffer> {
  let dump: Blob | undefined;
  // Inside a transaction of our own: no other transaction is half done while the files are read.
  await pglite.transaction(async () => {
    dump = await pglite.dumpDataDir("gzip");
  });
  return packBackup("pglite", currentSecrets(process.env, dataDir), Buffer.from(await dump!.arrayBuffer()));
}

/** Listens for backup requests; resolves to the function that stops listening. */
export async function listenForBackups(dataDir: string, pglite: PGlite, logger: Logger): Promise<() => Promise<void>> {
  const file = backupSocketPath(dataDir);
  // A socket left by a crashed run (this process holds the data directory's lock, so it is not in use).
  fs.rmSync(file, { force: true });
  let busy = false;
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    let request = "";
    let answered = false;
    socket.on("data", (chunk) => {
      if (answered) return;
      request += chunk.toString("utf8");
      if (!request.includes("\n") && request.length < 64) return;
      answered = true;
      if (request.trim() !== "backup" || busy) {
        socket.end(`ERROR ${busy ? "a backup is already being taken" : "unknown request"}\n`);
        return;
      }
      busy = true;
      takeBackup(pglite, dataDir)
        .then((archive) => {
          socket.write(`OK ${archive.length}\n`);
          socket.end(archive);
          logger.info({ bytes: archive.length }, "backup taken");
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, "backup failed");
          socket.end(`ERROR ${(error as Error).message}\n`);
        })
        .finally(() => (busy = false));
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(file, () => resolve());
    });
    fs.chmodSync(file, 0o600);
  } catch (error) {
    logger.error({ err: error, socket: file }, "the backup socket could not be opened: npm run backup will not work");
    return async () => {};
  }
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(file, { force: true });
    });
}
