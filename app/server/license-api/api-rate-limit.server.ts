import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { RateLimitResult } from "../auth/rate-limit.server";
import type pg from "pg";
import type { DatabaseHandle } from "../db/client.server";
import { getDatabaseHandle } from "../db/db.server";
import { api_rate_limits } from "../db/schema";
import { getEnv } from "../env.server";
import { licenseKeyHash } from "./find-license.server";

/**
 * Desktop API requests per minute, per client IP (API_RATE_LIMIT), per license key
 * (API_KEY_RATE_LIMIT) and per API token (API_TOKEN_RATE_LIMIT), counted by rate-limiter-flexible (decision 0041, replacing decision 0018's
 * per-process counter). On PostgreSQL every app server counts in one table (api_rate_limits, through
 * the pool), so a client gets the limit once, not once per server; should that table fail, each
 * server falls back to counting in its memory. The embedded engine runs one process: memory.
 */

const WINDOW_SECONDS = 60;
const TABLE = "api_rate_limits";

interface Limiters {
  ip: RateLimiterAbstract;
  key: RateLimiterAbstract;
  token: RateLimiterAbstract;
  settings: string;
}

const built = new WeakMap<DatabaseHandle, Limiters>();

function limiter(handle: DatabaseHandle, keyPrefix: "ip" | "key" | "token", points: number): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
  if (handle.engine !== "postgres" || !handle.pool) return memory;
  return new RateLimiterPostgres({
    storeClient: handle.pool,
    storeType: "pool",
    tableName: TABLE,
    tableCreated: true, // migration 0021 made it (schema.ts: api_rate_limits)
    keyPrefix,
    points,
    duration: WINDOW_SECONDS,
    insuranceLimiter: memory,
  });
}

/** The limiters of the open database and the current settings (made once, again when either changes). */
function limiters(): Limiters {
  const handle = getDatabaseHandle();
  const env = getEnv();
  const settings = `${env.API_RATE_LIMIT}/${env.API_KEY_RATE_LIMIT}/${env.API_TOKEN_RATE_LIMIT}`;
  let current = built.get(handle);
  if (current?.settings !== settings) {
    current = {
      ip: limiter(handle, "ip", env.API_RATE_LIMIT),
      key: limiter(handle, "key", env.API_KEY_RATE_LIMIT),
      token: limiter(handle, "token", env.API_TOKEN_RATE_LIMIT),
      settings,
    };
    built.set(handle, current);
  }
  return current;
}

async function hit(limiter: RateLimiterAbstract, id: string): Promise<RateLimitResult> {
  try {
    await limiter.consume(id);
    return { limited: false, retryAfter: 0 };
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    return { limited: true, retryAfter: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
  }
}

/** One desktop API request from a client IP, counted against API_RATE_LIMIT a minute. */
export function hitApiRateLimit(clientIp: string): Promise<RateLimitResult> {
  return hit(limiters().ip, clientIp);
}

/** One request naming a license key (by its hash), counted against API_KEY_RATE_LIMIT a minute. */
export function hitKeyRateLimit(key: string): Promise<RateLimitResult> {
  return hit(limiters().key, licenseKeyHash(key));
}

/**
 * The library's upsert (RateLimiterPostgres, rate-limiter-flexible 11.4.0: a count past its window
 * starts again at 1 with a new window) for the client IP's row and, only when the IP is within its
 * limit, the key's row: both in one statement. Rows are named `<prefix>:<id>` as the library names
 * them, so its limiters read and reset the same counts. Every statement takes the IP's row before
 * the key's, so two requests never wait on each other's rows in a circle.
 */
export const COUNT_BOTH_CTES = `with ip as (
    insert into ${TABLE} as t (key, points, expire) values ($1, 1, $3)
    on conflict (key) do update set
      points = case when t.expire <= $4 then 1 else t.points + 1 end,
      expire = case when t.expire <= $4 then $3 else t.expire end
    returning points, expire
  ), k as (
    insert into ${TABLE} as t (key, points, expire) select $2, 1, $3 from ip where ip.points <= $5
    on conflict (key) do update set
      points = case when t.expire <= $4 then 1 else t.points + 1 end,
      expire = case when t.expire <= $4 then $3 else t.expire end
    returning points, expire
  )`;
const COUNT_BOTH = `${COUNT_BOTH_CTES}
  select ip.points as ip_points, ip.expire as ip_expire, k.points as key_points, k.expire as key_expire
  from ip left join k on true`;

export interface BothRow {
  ip_points: number;
  ip_expire: string;
  key_points: number | null;
  key_expire: string | null;
}

const refused = (expire: string | null, now: number): RateLimitResult => ({
  limited: true,
  retryAfter: Math.max(1, Math.ceil((Number(expire) - now) / 1000)),
});

/**
 * COUNT_BOTH_CTES's parameters $1–$5 for a request now, and the reading of its counts: for a
 * statement that adds its own parameters from $6 on (count-and-find.server.ts).
 */
export function countBothStatement(clientIp: string, keyHash: string) {
  const limits = limiters();
  const now = Date.now();
  return {
    values: [`ip:${clientIp}`, `key:${keyHash}`, now + WINDOW_SECONDS * 1000, now, limits.ip.points] as unknown[],
    result: (row: BothRow): RateLimitResult => {
      if (row.ip_points > limits.ip.points) return refused(row.ip_expire, now);
      if (row.key_points! > limits.key.points) return refused(row.key_expire, now);
      return { limited: false, retryAfter: 0 };
    },
  };
}

async function countBoth(pool: pg.Pool, clientIp: string, keyHash: string): Promise<RateLimitResult> {
  const { values, result } = countBothStatement(clientIp, keyHash);
  const { rows } = await pool.query<BothRow>({ name: "api_rate_limits_count_both", text: COUNT_BOTH, values });
  return result(rows[0]!);
}

/**
 * A request naming a license key: its client IP (API_RATE_LIMIT) and then its key
 * (API_KEY_RATE_LIMIT) counted, the key only when the IP is within its limit, as the two limiters
 * one after the other would. On PostgreSQL in one statement (one round trip instead of two, the
 * desktop API's hottest path: decision 0048); should it fail, through each limiter (with its memory
 * insurance).
 */
export async function hitIpAndKeyRateLimits(clientIp: string, key: string): Promise<RateLimitResult> {
  const current = limiters();
  const keyHash = licenseKeyHash(key);
  const { pool } = getDatabaseHandle();
  if (pool) {
    try {
      return await countBoth(pool, clientIp, keyHash);
    } catch {
      // The table failed: the limiters below fall back to memory.
    }
  }
  const ip = await hit(current.ip, clientIp);
  return ip.limited ? ip : hit(current.key, keyHash);
}

/** One request with an API token (by its id), counted against API_TOKEN_RATE_LIMIT a minute (decision 0039). */
export function hitTokenRateLimit(tokenId: string): Promise<RateLimitResult> {
  return hit(limiters().token, tokenId);
}

/** Forgets every count (tests): the shared table and this process's limiters. */
export async function resetApiRateLimits(): Promise<void> {
  const handle = getDatabaseHandle();
  built.delete(handle);
  await handle.db.delete(api_rate_limits);
}
