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

/**
 * A query built once per database from `build` (drizzle's SQL text and row mapping made once, the
 * statement prepared once per PostgreSQL connection): for the reads every signed-in page view runs.
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): () => Query {
  const built = new WeakMap<Database, Query>();
  return () => {
    const db = getDb();
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
