import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Transaction } from "../db/client.server";

/**
 * pg-boss's `db` on the embedded engine: the app's one PGlite connection. PGlite runs one query
 * at a time and makes every query wait while a transaction is open, so pg-boss's statements never
 * land inside an app transaction; statements without parameters may be several (pg-boss's
 * locked BEGIN … COMMIT blocks) and go through exec, with a ROLLBACK if one fails so the shared
 * connection is never left in an aborted transaction.
 */
export function pgliteExecutor(client: PGlite): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) {
        const result = await client.query(
          text,
          values.map((v) => (v === undefined ? null : v)),
        );
        return { rows: result.rows as Record<string, unknown>[] };
      }
      try {
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      } catch (error) {
        await client.exec("ROLLBACK").catch(() => {});
        throw error;
      }
    },
  };
}

/** pg-boss's `db` inside an app transaction (both engines): its statement runs on the transaction. */
export function transactionExecutor(tx: Transaction): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks: SQL[] = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)));
        const value = values[Number(match[1]) - 1];
        chunks.push(sql`${toParam(value)}`);
        last = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = (await tx.execute(sql.join(chunks))) as unknown as { rows: Record<string, unknown>[] };
      return { rows: result.rows };
    },
  };
}

function toParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date))
    return JSON.stringify(value);
  return value;
}
