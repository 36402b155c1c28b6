import { sql } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { getEnv } from "../env.server";

export const RATE_LIMIT_WINDOW_SECONDS = 60;
export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a minute and try again.";

export interface RateLimitResult {
  limited: boolean;
  /** Seconds until the fullest window resets. */
  retryAfter: number;
}

/**
 * Counts one attempt against each key (e.g. "sign-in:ip:1.2.3.4", "sign-in:email:a@b.c")
 * in fixed one-minute windows kept in the database, so every app server sees the same
 * counts. Limited when any key has gone past its attempts (AUTH_RATE_LIMIT, default 10)
 * in the current window.
 */
export async function hitRateLimit(
  keys: string[],
  { attempts = getEnv().AUTH_RATE_LIMIT, windowSeconds = RATE_LIMIT_WINDOW_SECONDS } = {},
): Promise<RateLimitResult> {
  const db = getDb();
  let limited = false;
  let retryAfter = 0;
  const window = sql.raw(`interval '${Math.floor(windowSeconds)} seconds'`);
  for (const key of new Set(keys)) {
    const result = await db.execute<{ count: number; age: number }>(sql`
      insert into rate_limits (key, count, window_start) values (${key}, 1, now())
      on conflict (key) do update set
        count = case when rate_limits.window_start <= now() - ${window} then 1 else rate_limits.count + 1 end,
        window_start = case when rate_limits.window_start <= now() - ${window} then now() else rate_limits.window_start end
      returning count, extract(epoch from (now() - window_start))::float8 as age`);
    const row = (result as unknown as { rows: { count: number; age: number }[] }).rows[0]!;
    if (Number(row.count) > attempts) {
      limited = true;
      retryAfter = Math.max(retryAfter, Math.ceil(windowSeconds - Number(row.age)));
    }
  }
  // Now and then, forget windows long past.
  if (Math.random() < 0.01) {
    await db.execute(sql`delete from rate_limits where window_start < now() - interval '1 hour'`);
  }
  return { limited, retryAfter: Math.max(1, retryAfter) };
}
