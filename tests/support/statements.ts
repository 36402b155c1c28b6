import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import pg from "pg";
import type { TestApp } from "./test-app";

/** Records every SQL text sent to the database while `run` runs (both engines, transactions too). */
export async function statementsOf(app: TestApp, run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const restore: (() => void)[] = [];
  const tap = <T extends object>(target: T, method: "query" | "exec") => {
    const original = (target as Record<string, unknown>)[method] as (...args: unknown[]) => unknown;
    (target as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
      const text = args[0];
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
  }
  try {
    await run();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  return seen;
}
