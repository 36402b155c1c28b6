import { describe, expect, it } from "vitest";
import {
  checkOfflineData,
  computerNameProblem,
  emptyOfflineValueWarning,
  OFFLINE_DATA_MESSAGES as M,
  offlineDataSchema,
  windowsUsernameProblem,
} from "~/domain/offline-data";
import { NOT_ALLOWED_CHARACTERS_MESSAGE } from "~/domain/text-input";
import { parseValues } from "~/lib/form";

describe("windowsUsernameProblem", () => {
  it("accepts names of up to 20 characters, with spaces, dots, hyphens and other letters", () => {
    for (const name of ["dana", "Dana Miller", "d.miller-2", "x".repeat(20), "Zoë", "admin$"]) {
      expect(windowsUsernameProblem(name)).toBeNull();
    }
  });

  it("refuses more than 20 characters", () => {
    expect(windowsUsernameProblem("x".repeat(21))).toBe(M.usernameTooLong);
  });

  it("refuses each of the characters Windows does not allow", () => {
    for (const c of ["/", "[", "]", ":", ";", "|", "=", ",", "+", "*", "?", "<", ">", '"']) {
      expect(windowsUsernameProblem(`da${c}na`)).toBe(M.usernameCharacters);
    }
  });

  it("refuses dots and spaces only", () => {
    expect(windowsUsernameProblem("...")).toBe(M.usernameDots);
  });

  it("accepts one DOMAIN\\ prefix as whoami prints it, checking both parts", () => {
    expect(windowsUsernameProblem("CORP\\dana")).toBeNull();
    expect(windowsUsernameProblem("CORP\\" + "x".repeat(20))).toBeNull();
    expect(windowsUsernameProblem("CORP\\" + "x".repeat(21))).toBe(M.usernameTooLong);
    expect(windowsUsernameProblem("CORP\\da*na")).toBe(M.usernameCharacters);
    expect(windowsUsernameProblem("A\\B\\c")).toBe(M.usernameCharacters);
    expect(windowsUsernameProblem("\\dana")).toBe(M.usernameDomain);
    expect(windowsUsernameProblem("CORP\\")).toBe(M.usernameDomain);
    expect(windowsUsernameProblem("MY DOMAIN\\dana")).toBe(M.usernameDomain);
    expect(windowsUsernameProblem("A-VERY-LONG-DOMAIN\\dana")).toBe(M.usernameDomain);
  });
});

describe("computerNameProblem", () => {
  it("accepts up to 15 letters, digits and hyphens", () => {
    for (const name of ["DESKTOP-1A2B3C", "build-01", "X".repeat(15)]) expect(computerNameProblem(name)).toBeNull();
  });

  it("refuses more than 15 characters, other characters, and digits only", () => {
    expect(computerNameProblem("X".repeat(16))).toBe(M.computerTooLong);
    for (const name of ["DESK TOP", "desk_top", "desk.top", "pc\\1", "pç"]) {
      expect(computerNameProblem(name)).toBe(M.computerCharacters);
    }
    expect(computerNameProblem("12345")).toBe(M.computerDigits);
  });
});

describe("checkOfflineData", () => {
  it("refuses both values empty (spaces count as empty)", () => {
    expect(checkOfflineData({ windows_username: " ", computer_name: "" })).toEqual({
      ok: false,
      errors: { form: M.bothEmpty },
    });
  });

  it("trims the values and stores an empty one as null", () => {
    expect(checkOfflineData({ windows_username: "  CORP\\dana ", computer_name: "" })).toEqual({
      ok: true,
      windows_username: "CORP\\dana",
      computer_name: null,
    });
    expect(checkOfflineData({ windows_username: "", computer_name: " BUILD-01 " })).toEqual({
      ok: true,
      windows_username: null,
      computer_name: "BUILD-01",
    });
  });

  it("names every field that is wrong", () => {
    expect(checkOfflineData({ windows_username: "a/b", computer_name: "my pc" })).toEqual({
      ok: false,
      errors: { windows_username: M.usernameCharacters, computer_name: M.computerCharacters },
    });
  });
});

describe("offlineDataSchema", () => {
  const parse = (values: Record<string, string>) => parseValues(offlineDataSchema, values);

  it("gives the trimmed values, null for an empty one", () => {
    expect(parse({ windows_username: " dana ", computer_name: "" })).toEqual({
      success: true,
      data: { windows_username: "dana", computer_name: null },
    });
  });

  it("puts the both-empty refusal on the form and field problems on their fields", () => {
    expect(parse({})).toEqual({ success: false, fieldErrors: { form: [M.bothEmpty] } });
    expect(parse({ windows_username: "x".repeat(300), computer_name: "PC 1" })).toEqual({
      success: false,
      fieldErrors: { windows_username: [M.usernameTooLong] },
    });
    expect(parse({ windows_username: "dana", computer_name: "PC 1" })).toEqual({
      success: false,
      fieldErrors: { computer_name: [M.computerCharacters] },
    });
  });

  it("refuses control characters", () => {
    const result = parse({ windows_username: "da\u0000na", computer_name: "" });
    expect(result.success).toBe(false);
  });

  it("checkOfflineData itself (the rule the desktop API shares) refuses control characters and unreadable lengths", () => {
    expect(checkOfflineData({ windows_username: "da\u0000na", computer_name: "PC\u001b1" })).toEqual({
      ok: false,
      errors: { windows_username: NOT_ALLOWED_CHARACTERS_MESSAGE, computer_name: NOT_ALLOWED_CHARACTERS_MESSAGE },
    });
    expect(checkOfflineData({ windows_username: "a".repeat(5000), computer_name: "B".repeat(300) })).toEqual({
      ok: false,
      errors: { windows_username: M.usernameTooLong, computer_name: M.computerTooLong },
    });
  });
});

describe("emptyOfflineValueWarning", () => {
  it("says plainly which value can never be added when only one is given", () => {
    expect(emptyOfflineValueWarning({ windows_username: "dana", computer_name: null })).toBe(
      "The computer name stays empty: it can never be added to this license later.",
    );
    expect(emptyOfflineValueWarning({ windows_username: null, computer_name: "DESKTOP-1" })).toBe(
      "The Windows username stays empty: it can never be added to this license later.",
    );
  });

  it("says nothing when both are given", () => {
    expect(emptyOfflineValueWarning({ windows_username: "dana", computer_name: "DESKTOP-1" })).toBeNull();
  });
});
