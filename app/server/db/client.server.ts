import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./lock.server";
import { ensurePrivateDir, makeTreePrivate } from "./private-files.server";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The database, whichever engine is behind it (PGlite or PostgreSQL through pg). */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Engine = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  /** PostgreSQL's address (postgres only): other clients (the job queue) open their own pool. */
  url?: string;
  /** PostgreSQL's pool (postgres only): the desktop API's shared rate limiter counts through it. */
  pool?: pg.Pool;
  /** The embedded engine's one connection (pglite only): the job queue shares it. */
  pglite?: PGlite;
  /** Applies every pending migration (safe to call when up to date); a folder for tests. */
  migrate: (folder?: string) => Promise<void>;
  /** PostgreSQL's pool (postgres only): open connections, idle ones, queries waiting for one, the limit. */
  poolUse?: () => { total: number; idle: number; waiting: number; max: number };
  /** Cheap round trip, for readiness. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://… to use PostgreSQL; otherwise the embedded PGlite under dataDir. */
  url?: string;
  dataDir?: string;
  /** In-memory PGlite (tests). */
  memory?: boolean;
  /** PGlite only: start from this data directory's dump (`dumpDataDir()`), e.g. an already migrated one (tests). */
  loadDataDir?: Blob;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
}

/** The drizzle/ folder with the committed migrations, found from this file upward. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, "drizzle");
    if (fs.existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    dir = path.dirname(dir);
  }
  const fromCwd = path.resolve("drizzle");
  if (fs.existsSync(path.join(fromCwd, "meta", "_journal.json"))) return fromCwd;
  throw new Error("Cannot find the drizzle/ migrations folder");
}

// Any fixed number works: it only has to be the same for every app server.
const MIGRATION_LOCK_ID = 727_372_001;

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options.maxConnections ?? 10);
  return openPglite(options);
}

async function openPostgres(url: string, max: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on("error", () => {
    // An idle client's connection dropped; the pool replaces it on next use.
  });
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    engine: "postgres",
    url,
    pool,
    migrate: async (folder = migrationsFolder()) => {
      // One connection holds an advisory lock, so app servers starting together
      // apply the migrations once, one after the other.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client), { migrationsFolder: folder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
        await client.end();
      }
    },
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    ping: async () => {
      await pool.query("select 1");
    },
    close: () => pool.end(),
  };
}

async function openPglite(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  let release = () => {};
  let dataDir: string | undefined;
  if (!options.memory) {
    const base = options.dataDir ?? "./data";
    release = acquireDataDirLock(base).release;
    dataDir = path.join(base, "pglite");
  }
  // PGlite creates its files 0666: keep its directory 0700 and its files 0600.
  const makePrivate = () => {
    if (dataDir) makeTreePrivate(dataDir);
  };
  let client: PGlite;
  try {
    if (dataDir) ensurePrivateDir(dataDir);
    client = await PGlite.create(dataDir, { extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
    makePrivate();
  } catch (error) {
    release();
    throw error;
  }
  const db = markTransactions(drizzlePglite(client, { schema }) as unknown as Database);
  return {
    db,
    engine: "pglite",
    pglite: client,
    migrate: async (folder = migrationsFolder()) => {
      await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
      makePrivate();
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      try {
        await client.close();
        makePrivate();
      } finally {
        release();
      }
    },
  };
}

const openTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * True while the code running is inside the callback of an embedded database's `db.transaction`: the
 * PGlite has one connection, which the transaction holds, so a query through `getDb()` from there would
 * wait for ever (db.server.ts turns that into an error). Work the callback started that outlives it
 * sees false once the transaction has ended.
 */
export function insideEmbeddedTransaction(): boolean {
  return openTransaction.getStore()?.open === true;
}

/** Whether the transaction storage is on (Node 20's `enabled` field): only while a transaction is underway. */
export function transactionStorageOn(): boolean {
  return (openTransaction as unknown as { enabled?: unknown }).enabled === true;
}

/** Embedded transactions begun and not yet ended. */
let transactionsUnderway = 0;

function markTransactions(db: Database): Database {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (callback, config) => {
    transactionsUnderway++;
    try {
      return await transaction(async (tx) => {
        const state = { open: true };
        try {
          return await openTransaction.run(state, () => callback(tx));
        } finally {
          state.open = false;
        }
      }, config);
    } finally {
      // With none underway the storage is turned off, and with it Node's hook on every promise the
      // process creates (decision 0089); the next transaction's `run()` turns it on again.
      if (--transactionsUnderway === 0) openTransaction.disable();
    }
  }) as Database["transaction"];
  return db;
}

/** The handle inside `db.transaction(tx => …)`: use it, never `db`, until the callback returns. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
