import type { Database, DatabaseHandle } from "./client.server";

// The process's one database handle, opened at boot (server/app.ts) or by a test.
let handle: DatabaseHandle | undefined;

export function setDatabase(next: DatabaseHandle | undefined): void {
  handle = next;
}

/** The open database; throws if boot has not opened it yet. */
export function getDb(): Database {
  if (!handle) throw new Error("The database is not open yet");
  return handle.db;
}

export function getDatabaseHandle(): DatabaseHandle {
  if (!handle) throw new Error("The database is not open yet");
  return handle;
}
