import { insideEmbeddedTransaction, type Database, type DatabaseHandle } from "./client.server";

// The process's one database handle, opened at boot (server/app.ts) or by a test.
let handle: DatabaseHandle | undefined;

export function setDatabase(next: DatabaseHandle | undefined): void {
  handle = next;
}

/**
 * The open database; throws if boot has not opened it yet, and inside an embedded database's open
 * transaction, where a query through it would wait for ever for the one connection the transaction
 * holds (pass the transaction's handle down instead).
 */
export function getDb(): Database {
  if (!handle) throw new Error("The database is not open yet");
  if (insideEmbeddedTransaction())
    throw new Error("getDb() inside an open transaction of the embedded database: use the transaction's handle");
  return handle.db;
}

export function getDatabaseHandle(): DatabaseHandle {
  if (!handle) throw new Error("The database is not open yet");
  return handle;
}
