import { describe, expect, it } from "vitest";
import { releaseFormSchema } from "~/domain/admin";
import { formatBytes, hashCommand, wingetCommand } from "~/domain/installer";
import { parseValues } from "~/lib/form";

describe("installer facts", () => {
  it("formats sizes in decimal units", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(48_211_968)).toBe("48.2 MB");
    expect(formatBytes(1_500)).toBe("1.5 kB");
    expect(formatBytes(250_000_000)).toBe("250 MB");
    expect(formatBytes(2_000_000_000)).toBe("2.0 GB");
  });

  it("builds the winget command for a package id", () => {
    expect(wingetCommand("ForgeKit.ForgeKit")).toBe("winget install --id ForgeKit.ForgeKit --exact");
  });

  it("names the downloaded file in the hash command", () => {
    expect(hashCommand("/downloads/forgekit-latest.zip")).toBe("Get-FileHash .\\forgekit-latest.zip -Algorithm SHA256");
    expect(hashCommand("https://cdn.example/f/ForgeKit-2.4.0.zip?sig=1")).toBe(
      "Get-FileHash .\\ForgeKit-2.4.0.zip -Algorithm SHA256",
    );
  });
});

describe("the release form's optional installer fields", () => {
  const base = { version: "2.5.0", title: "", release_date: "2026-11-20", release_notes: ["A note"] };
  const parse = (extra: Record<string, string>) => parseValues(releaseFormSchema, { ...base, ...extra });
  const sha = "AB".repeat(32);

  it("stores blank as not known, a size as a number and the hash in lowercase", () => {
    expect(parse({ installer_size_bytes: "", installer_sha256: " " })).toMatchObject({
      success: true,
      data: { installer_size_bytes: null, installer_sha256: null },
    });
    expect(parse({ installer_size_bytes: "48 211 968", installer_sha256: sha })).toMatchObject({
      success: true,
      data: { installer_size_bytes: 48_211_968, installer_sha256: "ab".repeat(32) },
    });
    expect(parse({})).toMatchObject({ success: true, data: { installer_size_bytes: null } });
  });

  it("refuses a size that is not a positive whole number and a hash that is not 64 hex characters", () => {
    for (const size of ["-1", "0", "1.5", "lots", "1e13"]) {
      expect(parse({ installer_size_bytes: size })).toEqual({
        success: false,
        fieldErrors: { installer_size_bytes: ["Enter the installer's size as a whole number of bytes."] },
      });
    }
    for (const hash of ["abc", "g".repeat(64), "a".repeat(65)]) {
      expect(parse({ installer_sha256: hash })).toEqual({
        success: false,
        fieldErrors: { installer_sha256: ["A SHA-256 is 64 hexadecimal characters (0-9, a-f)."] },
      });
    }
  });
});
