import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MINIMUM_ANSWER_MS, takeAtLeast } from "~/server/auth/even-timing.server";

describe("takeAtLeast (the floor under register, resend and forgot-password answers)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  async function settledAfter<T>(promise: Promise<T>, ms: number): Promise<boolean> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(ms);
    return settled;
  }

  it("answers a quick path only once the floor has passed, with its result", async () => {
    const answer = takeAtLeast(MINIMUM_ANSWER_MS.forgot, async () => "done");
    expect(await settledAfter(answer, MINIMUM_ANSWER_MS.forgot - 1)).toBe(false);
    expect(await settledAfter(answer, 1)).toBe(true);
    await expect(answer).resolves.toBe("done");
  });

  it("holds a failure back to the floor too, then rethrows it", async () => {
    const answer = takeAtLeast(MINIMUM_ANSWER_MS.register, async () => {
      throw new Error("database down");
    });
    answer.catch(() => {});
    expect(await settledAfter(answer, MINIMUM_ANSWER_MS.register - 1)).toBe(false);
    expect(await settledAfter(answer, 1)).toBe(true);
    await expect(answer).rejects.toThrow("database down");
  });

  it("adds nothing to a path already slower than the floor", async () => {
    const answer = takeAtLeast(10, () => new Promise<string>((resolve) => setTimeout(() => resolve("slow"), 50)));
    expect(await settledAfter(answer, 50)).toBe(true);
  });
});
