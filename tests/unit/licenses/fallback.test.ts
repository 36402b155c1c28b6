import { describe, expect, it } from "vitest";
import {
  earnsFallback,
  fallbackFields,
  fallbackFor,
  fallbackSentence,
  isReversed,
  licenseFallbackSentence,
  newestStableBefore,
  paidRuns,
  withinFallback,
  type FallbackRelease,
  type PaidPeriod,
} from "~/domain/fallback";
import { addMonths } from "~/domain/extension";

const at = (iso: string) => new Date(`${iso}T00:00:00Z`);
const DAY = 24 * 60 * 60 * 1000;

/** `count` consecutive periods of `months` months from `start`. */
function periods(start: string, count: number, months = 1): PaidPeriod[] {
  return Array.from({ length: count }, (_, i) => ({
    start: addMonths(at(start), i * months),
    end: addMonths(at(start), (i + 1) * months),
    voided: false,
  }));
}

const release = (version: string, published: string | null, more: Partial<FallbackRelease> = {}): FallbackRelease => ({
  version,
  channel: "stable",
  published_at: published ? at(published) : null,
  yanked_at: null,
  ...more,
});

const RELEASES: FallbackRelease[] = [
  release("1.0.0", "2024-06-01"),
  release("1.1.0", "2024-12-15"),
  release("1.2.0", "2025-03-01"),
  release("2.0.0", "2025-09-01"),
  release("2.1.0", "2026-05-01"),
];

describe("paidRuns", () => {
  it("joins 12 monthly periods into one run", () => {
    expect(paidRuns(periods("2025-01-10", 12))).toEqual([{ start: at("2025-01-10"), end: at("2026-01-10") }]);
  });

  it("a gap of one day starts a new run", () => {
    const first = periods("2025-01-10", 6);
    const second = periods("2025-07-11", 6);
    expect(paidRuns([...first, ...second])).toEqual([
      { start: at("2025-01-10"), end: at("2025-07-10") },
      { start: at("2025-07-11"), end: at("2026-01-11") },
    ]);
  });

  it("a gap of one millisecond starts a new run too", () => {
    const runs = paidRuns([
      { start: at("2025-01-01"), end: at("2025-07-01"), voided: false },
      { start: new Date(at("2025-07-01").getTime() + 1), end: at("2026-01-01"), voided: false },
    ]);
    expect(runs).toHaveLength(2);
  });

  it("orders periods given in any order and joins overlapping ones", () => {
    const runs = paidRuns([
      { start: at("2025-06-01"), end: at("2026-01-01"), voided: false },
      { start: at("2025-01-01"), end: at("2025-07-01"), voided: false },
    ]);
    expect(runs).toEqual([{ start: at("2025-01-01"), end: at("2026-01-01") }]);
  });

  it("a period inside the run does not shorten it", () => {
    const runs = paidRuns([
      { start: at("2025-01-01"), end: at("2026-01-01"), voided: false },
      { start: at("2025-03-01"), end: at("2025-04-01"), voided: false },
    ]);
    expect(runs).toEqual([{ start: at("2025-01-01"), end: at("2026-01-01") }]);
  });

  it("leaves voided and empty periods out", () => {
    const list = periods("2025-01-01", 3);
    list[1]!.voided = true;
    list.push({ start: at("2025-04-01"), end: at("2025-04-01"), voided: false });
    expect(paidRuns(list)).toEqual([
      { start: at("2025-01-01"), end: at("2025-02-01") },
      { start: at("2025-03-01"), end: at("2025-04-01") },
    ]);
  });

  it("does not change the periods it was given", () => {
    const list = periods("2025-01-01", 2);
    const run = paidRuns(list)[0]!;
    run.end.setUTCFullYear(2030);
    expect(list[0]!.start).toEqual(at("2025-01-01"));
    expect(list[1]!.end).toEqual(at("2025-03-01"));
  });

  it("no periods: no runs", () => {
    expect(paidRuns([])).toEqual([]);
  });
});

describe("earnsFallback", () => {
  it("12 calendar months earn it, a day less does not", () => {
    expect(earnsFallback({ start: at("2025-01-31"), end: at("2026-01-31") })).toBe(true);
    expect(earnsFallback({ start: at("2025-01-31"), end: at("2026-01-30") })).toBe(false);
  });

  it("counts calendar months, not 365 days, across a leap day", () => {
    expect(earnsFallback({ start: at("2024-02-29"), end: at("2025-02-28") })).toBe(true);
    expect(earnsFallback({ start: at("2024-01-01"), end: new Date(at("2024-01-01").getTime() + 365 * DAY) })).toBe(
      false,
    );
  });
});

describe("isReversed", () => {
  it("an approved refund or a chargeback the customer won", () => {
    expect(isReversed({ refund_status: "approved", dispute_status: null })).toBe(true);
    expect(isReversed({ refund_status: null, dispute_status: "charged_back" })).toBe(true);
  });

  it.each([
    ["pending_approval", null],
    ["rejected", null],
    ["reversed", null],
    [null, "warning"],
    [null, "reversed"],
    [null, null],
  ])("refund %s, dispute %s: still paid", (refund, dispute) => {
    expect(isReversed({ refund_status: refund, dispute_status: dispute })).toBe(false);
  });
});

describe("newestStableBefore", () => {
  it("the newest version by semantic order, not by date or list order", () => {
    const list = [release("1.10.0", "2025-01-01"), release("1.9.0", "2025-02-01"), release("1.2.0", "2025-03-01")];
    expect(newestStableBefore(list, at("2025-06-01"))?.version).toBe("1.10.0");
  });

  it("leaves out betas, pre-releases, drafts, yanked releases, unparsable versions and releases on or after the moment", () => {
    const list = [
      release("1.0.0", "2025-01-01"),
      release("3.0.0", "2025-02-01", { channel: "beta" }),
      release("2.0.0-rc.1", "2025-02-01"),
      release("4.0.0", null),
      release("5.0.0", "2025-02-01", { yanked_at: at("2025-03-01") }),
      release("not a version", "2025-02-01"),
      release("6.0.0", "2025-06-01"),
    ];
    expect(newestStableBefore(list, at("2025-06-01"))?.version).toBe("1.0.0");
  });

  it("none before the moment: null", () => {
    expect(newestStableBefore(RELEASES, at("2024-06-01"))).toBeNull();
  });
});

describe("fallbackFor", () => {
  it("12 monthly payments: the newest stable release before the first", () => {
    expect(fallbackFor(periods("2025-04-01", 12), RELEASES)).toEqual({
      version: "1.2.0",
      run: { start: at("2025-04-01"), end: at("2026-04-01") },
    });
  });

  it("11 monthly payments: no fallback yet", () => {
    expect(fallbackFor(periods("2025-04-01", 11), RELEASES)).toBeNull();
  });

  it("one yearly payment earns it at once", () => {
    expect(fallbackFor(periods("2025-04-01", 1, 12), RELEASES)?.version).toBe("1.2.0");
  });

  it("6 months and 6 months back to back", () => {
    expect(fallbackFor(periods("2025-04-01", 2, 6), RELEASES)?.version).toBe("1.2.0");
  });

  it("6 months, a one-day gap, 6 months: no fallback", () => {
    const first = periods("2025-04-01", 1, 6);
    const second = [{ start: at("2025-10-02"), end: at("2026-04-02"), voided: false }];
    expect(fallbackFor([...first, ...second], RELEASES)).toBeNull();
  });

  it("a refunded payment in the middle breaks the run", () => {
    const list = periods("2025-04-01", 12);
    list[5]!.voided = true;
    expect(fallbackFor(list, RELEASES)).toBeNull();
  });

  it("a charged-back yearly payment earns nothing", () => {
    const list = periods("2025-04-01", 1, 12);
    list[0]!.voided = true;
    expect(fallbackFor(list, RELEASES)).toBeNull();
  });

  it("a refunded 13th month leaves the 12 before it", () => {
    const list = periods("2025-04-01", 13);
    list[12]!.voided = true;
    expect(fallbackFor(list, RELEASES)?.version).toBe("1.2.0");
  });

  it("a longer run counts its last 12 months: the fallback moves forward", () => {
    const fallback = fallbackFor(periods("2024-12-01", 20), RELEASES);
    expect(fallback).toEqual({ version: "1.2.0", run: { start: at("2025-08-01"), end: at("2026-08-01") } });
    expect(fallbackFor(periods("2024-12-01", 22), RELEASES)?.version).toBe("2.0.0");
  });

  it("several runs: the newest fallback counts (the latest run that reached 12 months)", () => {
    const early = periods("2024-07-01", 12);
    const late = periods("2025-10-01", 12);
    expect(fallbackFor([...early, ...late], RELEASES)?.version).toBe("2.0.0");
  });

  it("a later run that did not reach 12 months does not take away an earlier fallback", () => {
    const early = periods("2024-07-01", 12);
    const late = periods("2025-10-01", 3);
    expect(fallbackFor([...early, ...late], RELEASES)?.version).toBe("1.0.0");
  });

  it("a later run with nothing newer keeps the earlier run's version when a release is yanked", () => {
    const releases = [...RELEASES.slice(0, 3), release("2.0.0", "2025-09-01", { yanked_at: at("2025-09-02") })];
    const early = periods("2025-04-01", 12);
    const late = periods("2026-06-01", 12);
    expect(fallbackFor([...early, ...late], releases)?.version).toBe("1.2.0");
  });

  it("no stable release before the run: no fallback", () => {
    expect(fallbackFor(periods("2024-05-01", 12), RELEASES)).toBeNull();
    expect(fallbackFor(periods("2025-04-01", 12), [release("1.0.0", "2025-04-01")])).toBeNull();
  });

  it("no payments: no fallback", () => {
    expect(fallbackFor([], RELEASES)).toBeNull();
  });
});

describe("withinFallback", () => {
  it("the fallback version and older ones, not newer ones", () => {
    expect(withinFallback("1.2.0", "1.2.0")).toBe(true);
    expect(withinFallback("1.1.9", "1.2.0")).toBe(true);
    expect(withinFallback("1.2.0-beta.1", "1.2.0")).toBe(true);
    expect(withinFallback("1.2.1", "1.2.0")).toBe(false);
    expect(withinFallback("1.10.0", "1.2.0")).toBe(false);
  });

  it("versions that do not parse are not within it", () => {
    expect(withinFallback("latest", "1.2.0")).toBe(false);
    expect(withinFallback("1.0.0", "latest")).toBe(false);
  });
});

describe("fallbackSentence", () => {
  it("says what the customer keeps, before and after the end", () => {
    expect(fallbackSentence("1.2.0", false)).toBe(
      "You keep ForgeKit up to version 1.2.0 after your subscription ends.",
    );
    expect(fallbackSentence("1.2.0", true)).toBe("Your subscription has ended; you keep ForgeKit up to version 1.2.0.");
  });
});

describe("fallbackFields (decision 0070)", () => {
  const license = { end_date: at("2026-06-01"), past_due_since: null, fallback_version: "1.2.0" };

  it("the version and until when every version is included: the end date, or a past-due license's grace end", () => {
    expect(fallbackFields(license)).toEqual({ fallback_version: "1.2.0", updates_until: "2026-06-01T00:00:00.000Z" });
    expect(fallbackFields({ ...license, past_due_since: at("2026-06-01") }).updates_until).toBe(
      "2026-06-15T00:00:00.000Z",
    );
  });

  it("both null without a fallback", () => {
    expect(fallbackFields({ ...license, fallback_version: null })).toEqual({
      fallback_version: null,
      updates_until: null,
    });
  });
});

describe("licenseFallbackSentence (decision 0070)", () => {
  const now = at("2026-06-01");
  const license = {
    license_type: "monthly",
    status: "active",
    end_date: at("2026-07-01"),
    is_trial: false,
    trial_ends_at: null,
    auto_renew: true,
    cancellation_requested: false,
    has_subscription: true,
    refunded: false,
    refund_eligible_until: null,
    fallback_version: "1.2.0",
  };

  it("the running sentence while the license works, the ended one once it expired", () => {
    expect(licenseFallbackSentence(license, now)).toBe(fallbackSentence("1.2.0", false));
    expect(licenseFallbackSentence({ ...license, end_date: at("2026-05-01"), auto_renew: false }, now)).toBe(
      fallbackSentence("1.2.0", true),
    );
  });

  it("nothing without a fallback, nor for a revoked, refunded or refund-requested license", () => {
    expect(licenseFallbackSentence({ ...license, fallback_version: null }, now)).toBeNull();
    expect(licenseFallbackSentence({ ...license, status: "revoked" }, now)).toBeNull();
    expect(licenseFallbackSentence({ ...license, status: "refunded", refunded: true }, now)).toBeNull();
    expect(licenseFallbackSentence({ ...license, status: "refund_requested" }, now)).toBeNull();
  });
});
