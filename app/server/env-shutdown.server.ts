import { z } from "zod";

const seconds = (fallback: number, max: number) =>
  z.coerce
    .number({ message: "must be a number of seconds" })
    .int({ message: "must be a whole number of seconds" })
    .min(0, { message: "must be 0 or more (seconds)" })
    .max(max, { message: `must be at most ${max} (seconds)` })
    .default(fallback);

/**
 * Graceful shutdown on SIGTERM (server.js, decision 0045), part of the configuration schema in
 * env.server.ts.
 */
export const shutdownSettings = {
  /**
   * Seconds between SIGTERM and closing the listener, while /readyz already answers 503: for a load
   * balancer that polls /readyz (Caddy, a cloud balancer) to take the instance out first. 0 for nginx,
   * which learns from the refused connection and retries the request on the next instance.
   */
  SHUTDOWN_DELAY_SECONDS: seconds(0, 120),
  /** Seconds requests in flight and running jobs get to finish before the process exits anyway. */
  SHUTDOWN_TIMEOUT_SECONDS: seconds(25, 600),
};
