import { describe, expect, it } from "vitest";
import {
  RECOVERY_CODE_ALPHABET,
  normalizeRecoveryCode,
  recoveryCodesFileName,
  recoveryCodesText,
  textDataUrl,
} from "~/domain/recovery-codes";
import { generateRecoveryCodes } from "~/server/auth/recovery-code-generator.server";

describe("recovery codes", () => {
  it("are ten codes of two groups of five, without look-alike characters, all different", () => {
    const codes = Array.from({ length: 50 }, () => generateRecoveryCodes()).flat();
    expect(codes.every((code) => /^[2-9A-HJKMNP-TV-Z]{5}-[2-9A-HJKMNP-TV-Z]{5}$/.test(code))).toBe(true);
    expect(codes.join("")).not.toMatch(/[01OILUa-z]/);
    expect(new Set(codes).size).toBe(codes.length);
    expect(generateRecoveryCodes()).toHaveLength(10);
    expect(RECOVERY_CODE_ALPHABET).toHaveLength(30);
    // Every symbol of the alphabet turns up (the draw is not stuck on part of it).
    expect(new Set(codes.join("").replace(/-/g, "")).size).toBe(30);
  });

  it.each([
    ["7kq4m-xw9tp", "7KQ4M-XW9TP"],
    ["7KQ4MXW9TP", "7KQ4M-XW9TP"],
    ["7kq4m xw9tp", "7KQ4M-XW9TP"],
    ["  7Kq4M–Xw9tP ", "7KQ4M-XW9TP"],
    ["AbCdE-12345", "ABCDE-12345"],
  ])("reads %j as %j", (typed, code) => {
    expect(normalizeRecoveryCode(typed)).toBe(code);
  });

  it.each(["", "7KQ4M-XW9T", "7KQ4M-XW9TPX", "7KQ4M_XW9TP", "<b>7KQ4M</b>"])("refuses %j", (typed) => {
    expect(normalizeRecoveryCode(typed)).toBeNull();
  });

  it("the saved file names whose codes they are, when they were made, and lists every code", () => {
    const text = recoveryCodesText({
      productName: "ForgeKit",
      email: "ada@example.com",
      madeOn: "Nov 23, 2026",
      codes: ["7KQ4M-XW9TP", "ABCDE-23456"],
    });
    expect(text).toContain("ForgeKit recovery codes for ada@example.com");
    expect(text).toContain("Made on Nov 23, 2026.");
    expect(text.split("\r\n")).toEqual(expect.arrayContaining(["7KQ4M-XW9TP", "ABCDE-23456"]));
    expect(recoveryCodesFileName("ForgeKit")).toBe("forgekit-recovery-codes.txt");
    expect(decodeURIComponent(textDataUrl(text).replace("data:text/plain;charset=utf-8,", ""))).toBe(text);
  });
});
