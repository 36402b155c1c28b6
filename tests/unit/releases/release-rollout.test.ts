import { describe, expect, it } from "vitest";
import { newestOffered } from "~/domain/release-channel";
import { parseReleaseInput, parseReleasePatch, ReleaseInputError } from "~/domain/release-input";
import {
  checkMinimumVersion,
  inRollout,
  MINIMUM_VERSION_ABOVE_LATEST,
  MINIMUM_VERSION_INVALID,
  parseRollout,
  ROLLOUT_BUCKETS,
  rolloutSummary,
  ROLLOUT_OUT_OF_RANGE,
  updatePolicy,
} from "~/domain/release-rollout";

// Decision 0062: a release's rollout percentage, critical flag and minimum version, as pure rules.

describe("inRollout", () => {
  it("0% takes no bucket, 100% every one, and p% exactly the first p hundredths", () => {
    for (let bucket = 0; bucket < ROLLOUT_BUCKETS; bucket++) {
      expect(inRollout(bucket, 0)).toBe(false);
      expect(inRollout(bucket, 100)).toBe(true);
    }
    for (let percent = 0; percent <= 100; percent++) {
      let count = 0;
      for (let bucket = 0; bucket < ROLLOUT_BUCKETS; bucket++) if (inRollout(bucket, percent)) count++;
      expect(count, `${percent}%`).toBe(percent * 100);
    }
  });

  it("a machine in at one percentage stays in at every higher one (raising a rollout only adds machines)", () => {
    for (let bucket = 0; bucket < ROLLOUT_BUCKETS; bucket += 37) {
      let seen = false;
      for (let percent = 0; percent <= 100; percent++) {
        const now = inRollout(bucket, percent);
        if (seen) expect(now, `${bucket} at ${percent}%`).toBe(true);
        seen ||= now;
      }
    }
  });
});

describe("parseRollout", () => {
  it("takes whole numbers from 0 to 100, as numbers or form text", () => {
    for (let percent = 0; percent <= 100; percent++) {
      expect(parseRollout(percent)).toBe(percent);
      expect(parseRollout(String(percent))).toBe(percent);
    }
    expect(parseRollout(" 50 ")).toBe(50);
  });

  it("refuses anything outside 0–100, fractions and what is not a number", () => {
    for (const value of [
      -1,
      101,
      1000,
      50.5,
      0.1,
      NaN,
      Infinity,
      -0.5,
      "-1",
      "101",
      "50.5",
      "1e2",
      "",
      "ten",
      null,
      undefined,
      true,
      [50],
      {},
    ]) {
      expect(parseRollout(value), String(value)).toBeNull();
    }
  });
});

describe("checkMinimumVersion", () => {
  it("none when blank or null; any version up to the release's own is kept", () => {
    for (const value of [undefined, null, "", "   "])
      expect(checkMinimumVersion(value, "2.5.0")).toEqual({ ok: true, minimum: null });
    for (const value of ["2.5.0", "2.5", "2.4.9", "1", "2.5.0-beta.1", " 2.0.0 "]) {
      expect(checkMinimumVersion(value, "2.5.0"), value).toEqual({ ok: true, minimum: value.trim() });
    }
  });

  it("a minimum above the release's version is refused with minimum_version_above_latest", () => {
    for (const value of ["2.5.1", "2.6", "3.0.0", "2.5.0.1", "2.5.0-rc.1"]) {
      const check = checkMinimumVersion(value, value === "2.5.0-rc.1" ? "2.5.0-beta.1" : "2.5.0");
      expect(check.ok, value).toBe(false);
      if (!check.ok) expect(check.code).toBe(MINIMUM_VERSION_ABOVE_LATEST);
    }
  });

  it("what is not a version number is refused with minimum_version_invalid", () => {
    for (const value of ["latest", "2.x", "2..0", 2, true, [], "v"]) {
      const check = checkMinimumVersion(value, "2.5.0");
      expect(check.ok, String(value)).toBe(false);
      if (!check.ok) expect(check.code).toBe(MINIMUM_VERSION_INVALID);
    }
  });

  it("without the release's version, only the version number is checked", () => {
    expect(checkMinimumVersion("9.0.0")).toEqual({ ok: true, minimum: "9.0.0" });
    expect(checkMinimumVersion("nine").ok).toBe(false);
  });
});

describe("updatePolicy", () => {
  const release = (version: string, critical = false, minimum_version: string | null = null) => ({
    version,
    critical,
    minimum_version,
  });

  it("nothing is asked when no offered release sets a minimum or is critical", () => {
    expect(updatePolicy([], "1.0.0")).toEqual({
      minimum_version: null,
      update_required: false,
      critical_update: false,
    });
    expect(updatePolicy([release("2.0.0"), release("2.1.0")], "1.0.0")).toEqual({
      minimum_version: null,
      update_required: false,
      critical_update: false,
    });
  });

  it("the highest minimum among the offered releases counts, whichever release sets it", () => {
    const offered = [
      release("2.5.0", false, "2.0.0"),
      release("2.4.1", false, "2.4.0"),
      release("2.3.0", false, "1.0.0"),
    ];
    expect(updatePolicy(offered, "2.3.0")).toMatchObject({ minimum_version: "2.4.0", update_required: true });
    expect(updatePolicy(offered, "2.4.0")).toMatchObject({ minimum_version: "2.4.0", update_required: false });
    expect(updatePolicy(offered, "2.4.0-beta.1")).toMatchObject({ update_required: true });
    expect(updatePolicy(offered, "2.5.0")).toMatchObject({ update_required: false });
  });

  it("a critical release counts only while it is newer than the tool's version", () => {
    const offered = [release("2.4.1", true), release("2.5.0")];
    expect(updatePolicy(offered, "2.4.0").critical_update).toBe(true);
    expect(updatePolicy(offered, "2.4.1").critical_update).toBe(false);
    expect(updatePolicy(offered, "2.6.0").critical_update).toBe(false);
  });
});

describe("newestOffered with a rollout", () => {
  const rel = (version: string, rollout_percent?: number) => ({
    version,
    channel: "stable",
    published_at: new Date(),
    yanked_at: null,
    rollout_percent,
  });

  it("a partial rollout reaches only the machines the rollout names; without a machine only full rollouts", () => {
    const releases = [rel("2.4.0"), rel("2.5.0", 10), rel("2.4.5", 100)];
    expect(newestOffered(releases, "stable")?.version).toBe("2.4.5");
    expect(newestOffered(releases, "stable", () => false)?.version).toBe("2.4.5");
    expect(newestOffered(releases, "stable", () => true)?.version).toBe("2.5.0");
    expect(newestOffered([rel("2.5.0", 0)], "stable", () => false)).toBeNull();
    // A release without a percentage (older data) is everyone's.
    expect(newestOffered([rel("2.6.0", undefined)], "stable")?.version).toBe("2.6.0");
  });
});

describe("the releases API's rollout fields", () => {
  const body = {
    version: "2.5.0",
    notes: ["A note"],
    size: 10,
    sha256: "a".repeat(64),
  };
  const refusal = (read: () => unknown) => {
    try {
      read();
    } catch (error) {
      if (error instanceof ReleaseInputError) return { field: error.field, code: error.code };
      throw error;
    }
    throw new Error("not refused");
  };

  it("a new release is offered to everyone, not critical and without a minimum unless it says so", () => {
    expect(parseReleaseInput(body)).toMatchObject({ rollout_percent: 100, critical: false, minimum_version: null });
    expect(parseReleaseInput({ ...body, rollout: 10, critical: true, minimum_version: "2.4.0" })).toMatchObject({
      rollout_percent: 10,
      critical: true,
      minimum_version: "2.4.0",
    });
  });

  it("a rollout outside 0–100, or not a whole number, is refused with rollout_out_of_range", () => {
    for (const rollout of [-1, 101, 12.5, "50", null, true]) {
      expect(
        refusal(() => parseReleaseInput({ ...body, rollout })),
        String(rollout),
      ).toEqual({
        field: "rollout",
        code: ROLLOUT_OUT_OF_RANGE,
      });
      expect(refusal(() => parseReleasePatch({ rollout }))).toEqual({ field: "rollout", code: ROLLOUT_OUT_OF_RANGE });
    }
  });

  it("a minimum version above the release is refused with minimum_version_above_latest; a bad one with minimum_version_invalid", () => {
    expect(refusal(() => parseReleaseInput({ ...body, minimum_version: "2.6.0" }))).toEqual({
      field: "minimum_version",
      code: MINIMUM_VERSION_ABOVE_LATEST,
    });
    expect(refusal(() => parseReleaseInput({ ...body, minimum_version: "soon" }))).toEqual({
      field: "minimum_version",
      code: MINIMUM_VERSION_INVALID,
    });
    expect(refusal(() => parseReleasePatch({ minimum_version: 3 }))).toEqual({
      field: "minimum_version",
      code: MINIMUM_VERSION_INVALID,
    });
  });

  it("a patch may raise the rollout, mark it critical and set or clear the minimum", () => {
    expect(parseReleasePatch({ rollout: 50 })).toEqual({ rollout_percent: 50 });
    expect(parseReleasePatch({ critical: true, minimum_version: null })).toEqual({
      critical: true,
      minimum_version: null,
    });
    expect(parseReleasePatch({ minimum_version: "9.9.9" })).toEqual({ minimum_version: "9.9.9" });
    expect(refusal(() => parseReleasePatch({ critical: "yes" }))).toEqual({ field: "critical", code: undefined });
  });
});

describe("rolloutSummary (the admin list)", () => {
  it("says nothing of a release for everyone that asks nothing, and names each setting otherwise", () => {
    expect(rolloutSummary({ rollout_percent: 100, critical: false, minimum_version: null })).toBeNull();
    expect(rolloutSummary({ rollout_percent: 10, critical: true, minimum_version: "2.0.0" })).toBe(
      "Offered to 10% of machines · Critical · Minimum version 2.0.0",
    );
    expect(rolloutSummary({ rollout_percent: 0, critical: false, minimum_version: null })).toBe(
      "Offered to 0% of machines",
    );
  });
});
