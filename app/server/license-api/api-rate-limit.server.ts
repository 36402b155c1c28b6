import { hitRateLimit, type RateLimitResult } from "../auth/rate-limit.server";
import { getEnv } from "../env.server";

/**
 * One desktop API request from a client IP, counted against API_RATE_LIMIT a minute in the shared
 * database-backed limiter (so every app server counts together; decision 0018).
 */
export async function hitApiRateLimit(clientIp: string): Promise<RateLimitResult> {
  return hitRateLimit([`api:ip:${clientIp}`], { attempts: getEnv().API_RATE_LIMIT });
}
