import { sql } from "drizzle-orm";
import type { Database } from "~/server/db/client.server";

/** Every table's row count and a hash of its rows, to prove that nothing was written. */
export type TableSnapshot = Record<string, { rows: number; hash: string }>;

export async function rowsOf<T>(db: Database, query: string): Promise<T[]> {
  const result = await db.execute(sql.raw(query));
  return (result as unknown as { rows: T[] }).rows;
}

export async function snapshotTables(
  db: Database,
  {
    exclude = [],
    ignoreColumns = {},
  }: {
    exclude?: string[];
    /** Per table, columns left out of the hash (e.g. a last-sign-in time). */
    ignoreColumns?: Record<string, string[]>;
  } = {},
): Promise<TableSnapshot> {
  const tables = await rowsOf<{ name: string }>(
    db,
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const snapshot: TableSnapshot = {};
  for (const { name } of tables) {
    if (exclude.includes(name)) continue;
    const ignored = ignoreColumns[name] ?? [];
    const rowText = ignored.length
      ? `(to_jsonb(t) ${ignored.map((column) => `- '${column}'`).join(" ")})::text`
      : "t::text";
    const [row] = await rowsOf<{ rows: number; hash: string }>(
      db,
      `select count(*)::int as rows, md5(coalesce(string_agg(${rowText}, E'\\n' order by ${rowText}), '')) as hash from "${name}" t`,
    );
    snapshot[name] = { rows: Number(row!.rows), hash: row!.hash };
  }
  return snapshot;
}
