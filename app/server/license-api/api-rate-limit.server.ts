import type { RateLimitResult } from "../auth/rate-limit.server";
import { getEnv } from "../env.server";

/**
 * Desktop API requests per client IP: API_RATE_LIMIT a minute in fixed one-minute windows, counted
 * in this process (decision 0018: the shared database-backed limiter's upsert on every request cost
 * more than half of the validations a second; behind a load balancer each app server counts on its
 * own, so a client can make up to API_RATE_LIMIT × servers a minute).
 */
export class InProcessRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(private readonly windowMs = 60_000) {}

  hit(key: string, attempts: number, now = Date.now()): RateLimitResult {
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    const limited = window.count > attempts;
    return { limited, retryAfter: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)) };
  }

  /** Forgets windows that have ended, at most once a window (memory stays bounded by the clients of one minute). */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }

  /** Forgets every count (tests). */
  clear(): void {
    this.windows.clear();
  }
}

export const apiRateLimiter = new InProcessRateLimiter();

/** One desktop API request from a client IP, counted against API_RATE_LIMIT a minute. */
export function hitApiRateLimit(clientIp: string): RateLimitResult {
  return apiRateLimiter.hit(clientIp, getEnv().API_RATE_LIMIT);
}
