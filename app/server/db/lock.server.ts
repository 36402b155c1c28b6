import fs from "node:fs";
import path from "node:path";
import { ensurePrivateDir } from "./private-files.server";

export class DataDirLockedError extends Error {
  constructor(
    public readonly dataDir: string,
    public readonly holderPid: number,
  ) {
    super(
      `The data directory ${path.resolve(dataDir)} is in use by another process (pid ${holderPid}). ` +
        `The embedded database allows one process at a time: stop that process first ` +
        `(kill ${holderPid}), or give this one another DATA_DIR.`,
    );
    this.name = "DataDirLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the exclusive lock on an embedded data directory: a file holding our pid,
 * created with O_EXCL. A lock left by a process that no longer runs is taken over.
 * PGlite has no lock of its own, and two processes on one directory lose data.
 */
// Directories this process holds: a lock file with our own pid is ours only if listed here
// (in a container the app is often pid 1 on every start, so a crashed run's pid can be ours).
const held = new Set<string>();

export function acquireDataDirLock(dataDir: string): { release: () => void } {
  // The data directory holds the database and the generated secrets: the site's user only.
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, "pglite.lock");
  const key = path.resolve(file);
  if (held.has(key)) throw new DataDirLockedError(dataDir, process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      held.add(key);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(key);
        try {
          if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      // Stale lock (its process is gone, or the file is empty/corrupt): remove and retry.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock on ${path.resolve(dataDir)}`);
}
