import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { RateLimitResult } from "../auth/rate-limit.server";
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

/** One request with an API token (by its id), counted against API_TOKEN_RATE_LIMIT a minute (issue 27). */
export function hitTokenRateLimit(tokenId: string): Promise<RateLimitResult> {
  return hit(limiters().token, tokenId);
}

/** Forgets every count (tests): the shared table and this process's limiters. */
export async function resetApiRateLimits(): Promise<void> {
  const handle = getDatabaseHandle();
  built.delete(handle);
  await handle.db.delete(api_rate_limits);
}
