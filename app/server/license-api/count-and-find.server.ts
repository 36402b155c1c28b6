import { getTableColumns, Placeholder, type Column } from "drizzle-orm";
import pg from "pg";
import type { RateLimitResult } from "../auth/rate-limit.server";
import type { Database } from "../db/client.server";
import { getDatabaseHandle } from "../db/db.server";
import { licenses, machines, type License, type Machine } from "../db/schema";
import { fingerprintHash } from "../machines/machine-records.server";
import { COUNT_BOTH_CTES, countBothStatement, hitIpAndKeyRateLimits, type BothRow } from "./api-rate-limit.server";
import { licenseAndMachineQuery, licenseKeyHash } from "./find-license.server";

/**
 * A validation with a fingerprint on PostgreSQL in one round trip (decision 0051, the step decision
 * 0048 named): the client IP and the key counted (COUNT_BOTH_CTES, rate-limiter-flexible's upsert on
 * api_rate_limits, as `hitIpAndKeyRateLimits`) and the license with its machine read (the query
 * `findLicenseAndMachine` prepares, drizzle's own SQL) by one statement. A refused request reads
 * the license for nothing; should the statement fail, the counts and the lookup go as before.
 */

export type Found = { license: License | null; machine: Machine | null };

/** Timestamps, dates and intervals reach drizzle's columns as the text PostgreSQL sent, as in drizzle's sessions. */
const RAW_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const asSent = (value: string) => value;
const types = {
  getTypeParser: (id: number, format?: "text" | "binary") =>
    RAW_TYPES.has(id) ? asSent : pg.types.getTypeParser(id, format),
};

interface Statement {
  text: string;
  /** The lookup's parameters after the counts' five: a placeholder's name, or a value. */
  params: ({ placeholder: "hash" | "fingerprint" } | { value: unknown })[];
  license: [string, Column][];
  machine: [string, Column][];
}

const statements = new WeakMap<Database, Statement>();

/** The one statement: the counts' CTEs, the lookup as a CTE of its own, its parameters renumbered from $6. */
function statement(db: Database): Statement {
  let made = statements.get(db);
  if (made) return made;
  const { sql, params } = licenseAndMachineQuery(db).toSQL();
  const lookup = sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 5}`);
  made = {
    text: `${COUNT_BOTH_CTES}, found as (${lookup})
  select ip.points as ip_points, ip.expire as ip_expire, k.points as key_points, k.expire as key_expire, found.*
  from ip left join k on true left join found on true`,
    params: params.map((param) =>
      param instanceof Placeholder
        ? { placeholder: param.name as "hash" | "fingerprint" }
        : { value: param as unknown },
    ),
    license: Object.entries(getTableColumns(licenses)),
    machine: Object.entries(getTableColumns(machines)),
  };
  statements.set(db, made);
  return made;
}

/** A row's table, from `offset` on, as drizzle maps it (null when the left join found none: its id is null). */
function decode<T>(columns: [string, Column][], row: unknown[], offset: number): T | null {
  if (row[offset + columns.findIndex(([key]) => key === "id")] === null) return null;
  const out: Record<string, unknown> = {};
  columns.forEach(([key, column], i) => {
    const value = row[offset + i];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  });
  return out as T;
}

async function countAndFindOnce(
  pool: pg.Pool,
  db: Database,
  clientIp: string,
  key: string,
  fingerprint: string,
): Promise<RateLimitResult & { found: Found }> {
  const keyHash = licenseKeyHash(key);
  const made = statement(db);
  const counts = countBothStatement(clientIp, keyHash);
  const lookup = { hash: keyHash, fingerprint: fingerprintHash(fingerprint) };
  const values = [...counts.values, ...made.params.map((p) => ("placeholder" in p ? lookup[p.placeholder] : p.value))];
  const result = await pool.query<unknown[]>({
    name: "api_validate_count_and_find",
    text: made.text,
    values,
    rowMode: "array",
    types,
  });
  const row = result.rows[0]!;
  const [ip_points, ip_expire, key_points, key_expire] = row as [number, string, number | null, string | null];
  const license = decode<License>(made.license, row, 4);
  const machine = license && decode<Machine>(made.machine, row, 4 + made.license.length);
  return { ...counts.result({ ip_points, ip_expire, key_points, key_expire } as BothRow), found: { license, machine } };
}

/**
 * Counts a request naming a key (its client IP, then its key) and, on PostgreSQL with a
 * fingerprint, reads its license and machine in the same statement (`found`); otherwise `found` is
 * undefined and the caller looks them up.
 */
export async function countAndFind(
  clientIp: string,
  key: string,
  fingerprint: string | undefined,
): Promise<RateLimitResult & { found?: Found }> {
  const { pool, db } = getDatabaseHandle();
  if (pool && fingerprint !== undefined) {
    try {
      return await countAndFindOnce(pool, db, clientIp, key, fingerprint);
    } catch {
      // Nothing of the statement happened: counted and looked up one by one below.
    }
  }
  return hitIpAndKeyRateLimits(clientIp, key);
}
