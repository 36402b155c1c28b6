import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import pg from "pg";
import type { TestApp } from "./test-app";

/** Which call of `statementsOf` the running code belongs to. */
const caller = new AsyncLocalStorage<object>();

/**
 * Records every SQL text `run` sends to the database (both engines, transactions too). Only what runs
 * in `run`'s own asynchronous context counts: the app's background work (the job queue's polling, a
 * backfill queued at start) sends statements at any moment, and counting them made a page's count
 * differ by one between two loads.
 */
export async function statementsOf(app: TestApp, run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const marker = {};
  const restore: (() => void)[] = [];
  const tap = <T extends object>(target: T, method: "query" | "exec") => {
    const original = (target as Record<string, unknown>)[method] as (...args: unknown[]) => unknown;
    (target as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
      const text = args[0];
      if (caller.getStore() === marker)
        seen.push(typeof text === "string" ? text : String((text as { text?: string })?.text ?? ""));
      return original.apply(this, args);
    };
    restore.push(() => ((target as Record<string, unknown>)[method] = original));
  };
  const pglite = app.database.pglite;
  if (pglite) {
    tap(pglite, "query");
    tap(pglite, "exec");
    const transaction = pglite.transaction.bind(pglite) as PGlite["transaction"];
    (pglite as { transaction: unknown }).transaction = (callback: (tx: PGliteTransaction) => Promise<unknown>) =>
      transaction((tx) => {
        tap(tx, "query");
        tap(tx, "exec");
        return callback(tx);
      });
    restore.push(() => ((pglite as { transaction: unknown }).transaction = transaction));
  } else {
    tap(pg.Client.prototype, "query");
    // A query waiting for a free connection is sent from the callback of another query's release; bound
    // here, that callback runs in the context of the code that asked, so the query counts for it.
    const connect = pg.Pool.prototype.connect as (...args: unknown[]) => unknown;
    pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
      const [callback] = args;
      return connect.apply(
        this,
        typeof callback === "function" ? [AsyncResource.bind(callback as (...args: unknown[]) => unknown)] : args,
      );
    } as typeof pg.Pool.prototype.connect;
    restore.push(() => (pg.Pool.prototype.connect = connect as typeof pg.Pool.prototype.connect));
  }
  try {
    await caller.run(marker, run);
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  return seen;
}
