// The admin search's statement under EXPLAIN (ANALYZE, BUFFERS), per kind of term (bench/admin-search.ts
// --explain): the server's own execution and planning times, which a busy client process does not
// inflate, and the buffers read. `--plans` also prints the text plan of each kind's first term.
import { sql } from "drizzle-orm";
import { parseSearchQuery } from "../../app/domain/admin-search";
import { searchSql } from "../../app/server/admin/search-users.server";
import type { DatabaseHandle } from "../../app/server/db/client.server";

interface Explained {
  "Execution Time": number;
  "Planning Time": number;
  Plan: { "Shared Hit Blocks": number; "Shared Read Blocks": number };
}

async function explain(database: DatabaseHandle, term: string, format: "json" | "text") {
  const { query, error } = parseSearchQuery(term);
  if (!query) throw new Error(error);
  const options = format === "json" ? sql`(analyze, buffers, format json)` : sql`(analyze, buffers)`;
  const result = await database.db.execute(sql`explain ${options} ${searchSql(query, 1)}`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const max = (values: number[]) => Math.max(...values);

/** `samples` terms of each kind: median and worst execution time, median planning time and buffers. */
export async function explainKinds(
  database: DatabaseHandle,
  kinds: [string, () => string][],
  samples: number,
  plans: boolean,
) {
  for (const [kind, term] of kinds) {
    if (plans) {
      const first = term();
      console.log(`\n    ${kind}: ${first}`);
      for (const row of await explain(database, first, "text")) console.log(`      ${row["QUERY PLAN"] as string}`);
    }
    const execution: number[] = [];
    const planning: number[] = [];
    const buffers: number[] = [];
    for (let i = 0; i < samples; i++) {
      const [row] = await explain(database, term(), "json");
      const [plan] = row!["QUERY PLAN"] as Explained[];
      execution.push(plan!["Execution Time"]);
      planning.push(plan!["Planning Time"]);
      buffers.push(plan!.Plan["Shared Hit Blocks"] + plan!.Plan["Shared Read Blocks"]);
    }
    console.log(
      `    ${kind.padEnd(32)} execution median ${median(execution).toFixed(2).padStart(6)} ms, max ${max(execution).toFixed(2).padStart(6)} ms; planning ${median(planning).toFixed(2)} ms; buffers median ${median(buffers)}, max ${max(buffers)}`,
    );
  }
}
