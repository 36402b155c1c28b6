import { describe, expect, it } from "vitest";
import { InProcessRateLimiter } from "~/server/license-api/api-rate-limit.server";

describe("the desktop API's in-process rate limiter", () => {
  it("allows `attempts` hits a window per key, then limits with the seconds left in the window", () => {
    const limiter = new InProcessRateLimiter(60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.hit("a", 3, t0 + i).limited).toBe(false);
    expect(limiter.hit("a", 3, t0 + 20_000)).toEqual({ limited: true, retryAfter: 40 });
    expect(limiter.hit("a", 3, t0 + 59_500)).toEqual({ limited: true, retryAfter: 1 });
    // Another client is counted on its own.
    expect(limiter.hit("b", 3, t0 + 20_000).limited).toBe(false);
    // A new window starts when the old one has ended.
    expect(limiter.hit("a", 3, t0 + 60_000)).toEqual({ limited: false, retryAfter: 60 });
  });

  it("forgets ended windows, and clear() forgets everything", () => {
    const limiter = new InProcessRateLimiter(1_000);
    expect(limiter.hit("a", 1, 0).limited).toBe(false);
    expect(limiter.hit("a", 1, 10).limited).toBe(true);
    expect(limiter.hit("c", 1, 5_000).limited).toBe(false);
    expect(limiter.hit("a", 1, 5_001).limited).toBe(false);
    expect(limiter.hit("a", 1, 5_002).limited).toBe(true);
    limiter.clear();
    expect(limiter.hit("a", 1, 5_003).limited).toBe(false);
  });
});
