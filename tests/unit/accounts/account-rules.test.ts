import { describe, expect, it } from "vitest";
import {
  changePasswordSchema,
  deleteAccountSchema,
  disableTwoFactorSchema,
  parseSecondFactor,
  signInCodeSchema,
} from "~/domain/account-schemas";
import { newPasswordProblem } from "~/domain/auth-schemas";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { parseValues } from "~/lib/form";
import { describeUserAgent } from "~/domain/user-agent";
import { configuredOAuthProviders, oauthFormOrigins } from "~/server/auth/oauth-providers.server";
import { secretOfUri } from "~/server/auth/two-factor.server";
import { parseEnv } from "~/server/env.server";

describe("parseSecondFactor", () => {
  it.each([
    ["123456", { kind: "totp", code: "123456" }],
    [" 123 456 ", { kind: "totp", code: "123456" }],
    // Recovery codes in any case, with their dash, without it, or with a space in its place.
    ["abcde-12345", { kind: "recovery", code: "ABCDE-12345" }],
    ["AbCdE12345", { kind: "recovery", code: "ABCDE-12345" }],
    ["7kq4m xw9tp", { kind: "recovery", code: "7KQ4M-XW9TP" }],
    [" 7KQ4M – XW9TP ", { kind: "recovery", code: "7KQ4M-XW9TP" }],
  ])("reads %j", (input, expected) => {
    expect(parseSecondFactor(input)).toEqual(expected);
  });

  it.each(["", "12345", "1234567", "abcd-12345", "abcde_12345", "<script>", "123456 7"])("refuses %j", (input) => {
    expect(parseSecondFactor(input)).toBeNull();
  });

  it("the code step's schema says what to type", () => {
    const empty = parseValues(signInCodeSchema, { code: " " });
    expect(empty.success).toBe(false);
    if (!empty.success) expect(empty.fieldErrors.code![0]).toBe("Enter the 6-digit code from your authenticator app.");
    const odd = parseValues(signInCodeSchema, { code: "12" });
    if (!odd.success) expect(odd.fieldErrors.code![0]).toMatch(/recovery code like 7KQ4M-XW9TP/);
    expect(odd.success).toBe(false);
  });
});

describe("account form rules", () => {
  it("a new password must match its confirmation and differ from the current one", () => {
    const base = { currentPassword: "old-pass-1", newPassword: "new-pass-1", confirm: "new-pass-1" };
    expect(parseValues(changePasswordSchema, base).success).toBe(true);
    const mismatch = parseValues(changePasswordSchema, { ...base, confirm: "other-1" });
    expect(mismatch.success).toBe(false);
    if (!mismatch.success) expect(mismatch.fieldErrors.confirm![0]).toMatch(/do not match/);
    const same = parseValues(changePasswordSchema, { ...base, newPassword: "old-pass-1", confirm: "old-pass-1" });
    if (!same.success) expect(same.fieldErrors.newPassword![0]).toMatch(/different/);
    expect(same.success).toBe(false);
    expect(parseValues(changePasswordSchema, { ...base, newPassword: "12345", confirm: "12345" }).success).toBe(false);
  });

  it("turning two-factor off takes a password and six digits", () => {
    expect(parseValues(disableTwoFactorSchema, { password: "p", code: "123 456" }).success).toBe(true);
    expect(parseValues(disableTwoFactorSchema, { password: "", code: "123456" }).success).toBe(false);
    expect(parseValues(disableTwoFactorSchema, { password: "p", code: "abcde-12345" }).success).toBe(false);
  });

  it("deleting needs the word DELETE", () => {
    expect(parseValues(deleteAccountSchema, { password: "p", confirm: " DELETE " }).success).toBe(true);
    const lower = parseValues(deleteAccountSchema, { password: "p", confirm: "delete" });
    expect(lower.success).toBe(false);
    if (!lower.success) expect(lower.fieldErrors.confirm![0]).toBe("Type DELETE to confirm.");
  });
});

describe("describeUserAgent", () => {
  it.each([
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0",
      "Edge on Windows",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0", "Firefox on Windows"],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36",
      "Chrome on Linux",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1",
      "Safari on iOS",
    ],
    ["curl/8.5.0", "Script"],
    ["", "Unknown browser"],
    [null, "Unknown browser"],
  ])("%j is %j", (ua, expected) => {
    expect(describeUserAgent(ua)).toBe(expected);
  });
});

describe("two-factor set-up", () => {
  it("takes the key people type from the otpauth address", () => {
    expect(secretOfUri("otpauth://totp/ForgeKit:a%40b.c?secret=JBSWY3DPEHPK3PXP&issuer=ForgeKit")).toBe(
      "JBSWY3DPEHPK3PXP",
    );
    expect(secretOfUri("not a uri")).toBe("");
  });
});

describe("OAuth providers", () => {
  const env = (vars: Record<string, string>) => parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/fk-unit-oauth", ...vars });

  it("offers only providers with both client id and secret", () => {
    expect(configuredOAuthProviders(env({}))).toEqual([]);
    expect(configuredOAuthProviders(env({ GITHUB_CLIENT_ID: "id" }))).toEqual([]);
    expect(configuredOAuthProviders(env({ GITHUB_CLIENT_ID: "id", GITHUB_CLIENT_SECRET: "s" }))).toEqual(["github"]);
    expect(
      configuredOAuthProviders(
        env({ GITHUB_CLIENT_ID: "i", GITHUB_CLIENT_SECRET: "s", GOOGLE_CLIENT_ID: "i", GOOGLE_CLIENT_SECRET: "s" }),
      ),
    ).toEqual(["github", "google"]);
  });

  it("lets the sign-in forms reach exactly the configured providers' origins", () => {
    expect(oauthFormOrigins(env({}))).toEqual([]);
    expect(
      oauthFormOrigins(
        env({ GITHUB_CLIENT_ID: "i", GITHUB_CLIENT_SECRET: "s", GOOGLE_CLIENT_ID: "i", GOOGLE_CLIENT_SECRET: "s" }),
      ),
    ).toEqual(["https://github.com", "https://accounts.google.com"]);
  });
});

describe("newPasswordProblem: the reset page's checks, each beside its field", () => {
  it("a mismatch first, beside the confirmation, with the product's title and text", () => {
    expect(newPasswordProblem("abc", "abd")).toEqual({
      field: "confirm",
      title: T.passwordMismatchTitle,
      message: "Passwords do not match. Please try again.",
    });
  });

  it("then a short or long password, beside the new password", () => {
    expect(newPasswordProblem("12345", "12345")).toEqual({
      field: "password",
      title: "Password Too Short",
      message: "Password must be at least 6 characters long.",
    });
    expect(newPasswordProblem("x".repeat(129), "x".repeat(129))).toMatchObject({
      field: "password",
      title: "Password too long",
    });
    expect(newPasswordProblem("123456", "123456")).toBeNull();
  });
});
