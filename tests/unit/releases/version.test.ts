import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareVersions, isNewerVersion, isVersion, parseVersion, type Version } from "~/domain/version";

const v = (text: string): Version => {
  const parsed = parseVersion(text);
  if (!parsed) throw new Error(`not a version: ${text}`);
  return parsed;
};
const cmp = (a: string, b: string) => compareVersions(v(a), v(b));

describe("parseVersion", () => {
  it.each([
    ["1.2.3", ["1", "2", "3"], []],
    ["1.2", ["1", "2"], []],
    ["1", ["1"], []],
    ["v2.4.0", ["2", "4", "0"], []],
    ["V2.4.0", ["2", "4", "0"], []],
    ["1.2.3.4", ["1", "2", "3", "4"], []],
    ["01.002.0", ["1", "2", "0"], []],
    ["1.0.0-beta.2", ["1", "0", "0"], ["beta", "2"]],
    ["1.0.0-rc-1+build.5", ["1", "0", "0"], ["rc-1"]],
    ["1.0.0+20261123", ["1", "0", "0"], []],
    ["99999999999999999999.0", ["99999999999999999999", "0"], []],
  ])("%s", (text, core, pre) => {
    expect(parseVersion(text)).toEqual({ core, pre });
    expect(isVersion(text)).toBe(true);
  });

  it.each([
    "",
    "latest",
    "1.",
    ".1",
    "1..2",
    "1.2.3.4.5",
    "1.2.3-",
    "1.2.3-beta..1",
    "1.2.3+",
    "1.2.3 beta",
    " 1.2.3",
    "-1.2",
    "1.2.x",
    "vv1.2",
    "1.2.3-béta",
    "1.2.3\u0000",
    "1".repeat(65),
  ])("refuses %j", (text) => {
    expect(parseVersion(text)).toBeNull();
    expect(isVersion(text)).toBe(false);
  });
});

describe("compareVersions", () => {
  it("orders numeric parts by value, not as text", () => {
    expect(cmp("1.10.0", "1.9.0")).toBe(1);
    expect(cmp("1.9.0", "1.10.0")).toBe(-1);
    expect(cmp("2.0.0", "1.99.99")).toBe(1);
    expect(cmp("1.2.10", "1.2.9")).toBe(1);
    expect(cmp("10.0.0", "9.0.0")).toBe(1);
    expect(cmp("100000000000000000001.0", "100000000000000000000.9")).toBe(1);
  });

  it("treats missing parts as zero: 1.2 is 1.2.0, a fourth part counts", () => {
    expect(cmp("1.2", "1.2.0")).toBe(0);
    expect(cmp("1", "1.0.0")).toBe(0);
    expect(cmp("1.2", "1.2.1")).toBe(-1);
    expect(cmp("1.2.0.1", "1.2")).toBe(1);
    expect(cmp("v1.2", "1.2.0")).toBe(0);
    expect(cmp("01.2", "1.2")).toBe(0);
  });

  it("ignores build metadata", () => {
    expect(cmp("1.0.0+a", "1.0.0+b")).toBe(0);
    expect(cmp("1.0.0-rc.1+x", "1.0.0-rc.1")).toBe(0);
  });

  it("puts a pre-release before its release and after the previous release", () => {
    expect(cmp("1.0.0-alpha", "1.0.0")).toBe(-1);
    expect(cmp("1.0.0", "1.0.0-alpha")).toBe(1);
    expect(cmp("1.0.0-rc.1", "0.9.9")).toBe(1);
    expect(cmp("1.2-beta", "1.2.0")).toBe(-1);
  });

  it("follows the Semantic Versioning 2.0.0 example order", () => {
    const order = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "2.0.0",
      "2.1.0",
      "2.1.1",
    ];
    for (let i = 0; i < order.length; i++) {
      for (let j = 0; j < order.length; j++) {
        expect(cmp(order[i]!, order[j]!), `${order[i]} vs ${order[j]}`).toBe(Math.sign(i - j));
      }
    }
  });

  it("compares pre-release identifiers: numeric by value, numeric before alphanumeric, text in ASCII order", () => {
    expect(cmp("1.0.0-2", "1.0.0-10")).toBe(-1);
    expect(cmp("1.0.0-9", "1.0.0-a")).toBe(-1);
    expect(cmp("1.0.0-B", "1.0.0-a")).toBe(-1);
    expect(cmp("1.0.0-rc.1", "1.0.0-rc.1.0")).toBe(-1);
    expect(cmp("1.0.0-x-y", "1.0.0-x-y")).toBe(0);
  });

  const versionText = fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 4 }),
      fc.array(fc.oneof(fc.integer({ min: 0, max: 30 }).map(String), fc.constantFrom("alpha", "beta", "rc", "a-b")), {
        maxLength: 3,
      }),
    )
    .map(([core, pre]) => core.join(".") + (pre.length ? `-${pre.join(".")}` : ""));

  it("is a total order: antisymmetric, reflexive, transitive", () => {
    fc.assert(
      fc.property(versionText, versionText, versionText, (a, b, c) => {
        expect(cmp(a, a)).toBe(0);
        expect(cmp(a, b)).toBe(-cmp(b, a) || 0);
        if (cmp(a, b) <= 0 && cmp(b, c) <= 0) expect(cmp(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it("agrees with numeric comparison on plain releases", () => {
    const triple = fc.tuple(fc.nat(1000), fc.nat(1000), fc.nat(1000));
    fc.assert(
      fc.property(triple, triple, (a, b) => {
        const expected = Math.sign(a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
        expect(cmp(a.join("."), b.join("."))).toBe(expected);
      }),
    );
  });
});

describe("isNewerVersion", () => {
  it("says whether the candidate is newer than the current version", () => {
    expect(isNewerVersion("2.4.0", "2.3.9")).toBe(true);
    expect(isNewerVersion("2.4.0", "2.4")).toBe(false);
    expect(isNewerVersion("2.4.0", "2.4.0-beta.1")).toBe(true);
    expect(isNewerVersion("2.4.0-beta.1", "2.4.0")).toBe(false);
    expect(isNewerVersion("2.4.0", "3.0")).toBe(false);
  });

  it("is false when either does not parse", () => {
    expect(isNewerVersion("Spring release", "1.0.0")).toBe(false);
    expect(isNewerVersion("2.0.0", "nonsense")).toBe(false);
  });
});
