import { describe, expect, it } from "vitest";
import {
  channelsOffered,
  checkNewVersion,
  isInstallerSize,
  newestOffered,
  normalizeSha256,
  parseChannel,
  releaseStatus,
  VERSION_INVALID,
} from "~/domain/release-channel";
import { parseReleaseInput, parseReleasePatch, ReleaseInputError } from "~/domain/release-input";

const at = new Date("2026-11-01T00:00:00Z");
const rel = (version: string, channel = "stable", published: Date | null = at, yanked: Date | null = null) => ({
  version,
  channel,
  published_at: published,
  yanked_at: yanked,
});

describe("channels", () => {
  it("reads stable (also when not given), beta, and nothing else", () => {
    expect(parseChannel(undefined)).toBe("stable");
    expect(parseChannel("")).toBe("stable");
    expect(parseChannel("stable")).toBe("stable");
    expect(parseChannel("beta")).toBe("beta");
    for (const wrong of ["Beta", "nightly", " beta", 1, {}]) expect(parseChannel(wrong)).toBeNull();
  });

  it("offers stable to stable and stable and beta to beta", () => {
    expect(channelsOffered("stable")).toEqual(["stable"]);
    expect(channelsOffered("beta")).toEqual(["stable", "beta"]);
  });

  it("names a release draft, published or yanked (yanked wins)", () => {
    expect(releaseStatus({ published_at: null, yanked_at: null })).toBe("draft");
    expect(releaseStatus({ published_at: at, yanked_at: null })).toBe("published");
    expect(releaseStatus({ published_at: at, yanked_at: at })).toBe("yanked");
    expect(releaseStatus({ published_at: null, yanked_at: at })).toBe("yanked");
  });
});

describe("newestOffered", () => {
  const releases = [
    rel("2.4.0"),
    rel("2.5.0-beta.2", "beta"),
    rel("2.5.0-beta.1", "beta"),
    rel("2.6.0", "stable", null),
    rel("2.5.0-beta.3", "beta", at, at),
    rel("2.3.9"),
  ];

  it("picks the newest published, non-yanked version of the channels offered", () => {
    expect(newestOffered(releases, "stable")?.version).toBe("2.4.0");
    expect(newestOffered(releases, "beta")?.version).toBe("2.5.0-beta.2");
  });

  it("gives beta users the stable release once it is newer than the betas", () => {
    expect(newestOffered([...releases, rel("2.5.0")], "beta")?.version).toBe("2.5.0");
  });

  it("orders by version, not by position, and puts versions that do not parse last", () => {
    expect(newestOffered([rel("old-name"), rel("1.0.0"), rel("1.10.0"), rel("1.9.0")], "stable")?.version).toBe(
      "1.10.0",
    );
    expect(newestOffered([rel("old-name")], "stable")?.version).toBe("old-name");
  });

  it("offers nothing when every release is a draft, yanked, or of another channel", () => {
    expect(newestOffered([rel("1.0.0", "stable", null), rel("1.1.0", "beta")], "stable")).toBeNull();
    expect(newestOffered([rel("1.0.0", "stable", at, at)], "beta")).toBeNull();
  });
});

describe("checkNewVersion", () => {
  const existing = ["2.4.0", "2.3.2", "2.5.0-beta.1"];

  it("accepts a valid version newer than every other", () => {
    expect(checkNewVersion("2.5.0", existing, { allowOlder: false })).toEqual({ ok: true });
    expect(checkNewVersion("1.0.0", [], { allowOlder: false })).toEqual({ ok: true });
  });

  it("refuses what is not a version number", () => {
    for (const bad of ["", "latest", "2.4.0 beta", "2..4", "x".repeat(70)]) {
      expect(checkNewVersion(bad, existing, { allowOlder: true })).toMatchObject({
        ok: false,
        kind: "invalid",
        message: VERSION_INVALID,
      });
    }
  });

  it("refuses the same version, also written differently", () => {
    for (const same of ["2.4.0", "2.4", "v2.4.0", "2.4.0+build.7"]) {
      expect(checkNewVersion(same, existing, { allowOlder: true })).toMatchObject({ ok: false, kind: "duplicate" });
    }
  });

  it("asks to confirm an older version, and accepts it once confirmed", () => {
    expect(checkNewVersion("2.4.1", existing, { allowOlder: false })).toMatchObject({
      ok: false,
      kind: "older",
      newest: "2.5.0-beta.1",
    });
    expect(checkNewVersion("2.4.1", existing, { allowOlder: true })).toEqual({ ok: true });
  });
});

describe("installer facts", () => {
  it("takes a SHA-256 as 64 hex characters, stored lowercase", () => {
    expect(normalizeSha256("AB".repeat(32))).toBe("ab".repeat(32));
    for (const bad of ["ab".repeat(31), "zz".repeat(32), "", "ab".repeat(33)]) expect(normalizeSha256(bad)).toBeNull();
  });

  it("takes a size as a whole number of bytes from 1 to 10^12", () => {
    expect(isInstallerSize(1)).toBe(true);
    expect(isInstallerSize(1e12)).toBe(true);
    for (const bad of [0, -1, 1.5, 1e12 + 1, Number.NaN]) expect(isInstallerSize(bad)).toBe(false);
  });
});

describe("the releases API's bodies", () => {
  const good = {
    version: "2.5.0-beta.1",
    title: " Beta ",
    notes: [" One ", "", "Two"],
    channel: "beta",
    download_url: "https://downloads.example/forgekit-2.5.0-beta.1.zip",
    size: 1234,
    sha256: "AB".repeat(32),
    published: true,
  };
  const fieldOf = (
    body: Record<string, unknown>,
    parse: (body: Record<string, unknown>) => unknown = parseReleaseInput,
  ) => {
    try {
      parse(body);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ReleaseInputError);
      return (error as ReleaseInputError).field;
    }
  };

  it("reads a good body: notes trimmed, the SHA-256 lowercase, defaults for channel and published", () => {
    expect(parseReleaseInput(good)).toEqual({
      version: "2.5.0-beta.1",
      title: "Beta",
      release_notes: ["One", "Two"],
      channel: "beta",
      download_url: good.download_url,
      installer_size_bytes: 1234,
      installer_sha256: "ab".repeat(32),
      published: true,
      // Decision 0062's defaults: everyone, not critical, no minimum.
      rollout_percent: 100,
      critical: false,
      minimum_version: null,
    });
    const { channel: _c, published: _p, download_url: _d, ...minimal } = good;
    expect(parseReleaseInput(minimal)).toMatchObject({ channel: "stable", published: false, download_url: null });
  });

  it("names the field of the first problem", () => {
    expect(fieldOf({ ...good, version: "next" })).toBe("version");
    expect(fieldOf({ ...good, version: undefined })).toBe("version");
    expect(fieldOf({ ...good, channel: "nightly" })).toBe("channel");
    expect(fieldOf({ ...good, size: "1234" })).toBe("size");
    expect(fieldOf({ ...good, size: 0 })).toBe("size");
    expect(fieldOf({ ...good, sha256: "abc" })).toBe("sha256");
    expect(fieldOf({ ...good, sha256: undefined })).toBe("sha256");
    expect(fieldOf({ ...good, notes: [" "] })).toBe("notes");
    expect(fieldOf({ ...good, notes: "one" })).toBe("notes");
    expect(fieldOf({ ...good, download_url: "ftp://x/y.zip" })).toBe("download_url");
    expect(fieldOf({ ...good, download_url: "not a url" })).toBe("download_url");
    expect(fieldOf({ ...good, published: "yes" })).toBe("published");
    expect(fieldOf({ ...good, title: 5 })).toBe("title");
  });

  it("patches any of title, notes, published, yanked, and nothing else", () => {
    expect(parseReleasePatch({ yanked: true })).toEqual({ yanked: true });
    expect(parseReleasePatch({ title: "", notes: ["a"], published: false })).toEqual({
      title: null,
      release_notes: ["a"],
      published: false,
    });
    expect(fieldOf({}, parseReleasePatch)).toBe("body");
    expect(fieldOf({ version: "3.0.0" }, parseReleasePatch)).toBe("version");
    expect(fieldOf({ sha256: "ab".repeat(32) }, parseReleasePatch)).toBe("sha256");
    expect(fieldOf({ yanked: "true" }, parseReleasePatch)).toBe("yanked");
  });
});
