import fs from "node:fs";
import path from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a directory (and its parents) readable only by the site's user; an existing one is made so. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodIfNeeded(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes a tree private to the site's user: directories 0700, files 0600. PGlite (Emscripten's
 * file system) creates its files 0666 whatever the umask, so this runs over its directory after
 * it opens, after migrations and when it closes; the 0700 directory above keeps everyone else out
 * of files it creates in between.
 */
export function makeTreePrivate(root: string): void {
  let entries: fs.Dirent[];
  chmodIfNeeded(root, PRIVATE_DIR_MODE);
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) makeTreePrivate(full);
    else if (entry.isFile()) chmodIfNeeded(full, PRIVATE_FILE_MODE);
  }
}

function chmodIfNeeded(target: string, mode: number): void {
  // A file deleted meanwhile (PGlite removes temporary files) is not an error.
  try {
    if ((fs.statSync(target).mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
