import { describe, expect, it } from "vitest";
import {
  API_TOKEN_SCOPES,
  bearerToken,
  isTokenShaped,
  parseScopes,
  refuseToken,
  tokenFormSchema,
  tokenStatus,
} from "~/domain/api-token";

const now = new Date("2026-11-24T12:00:00Z");
const later = new Date("2026-12-24T12:00:00Z");
const earlier = new Date("2026-10-24T12:00:00Z");
const token = (over: Partial<{ expires_at: Date; revoked_at: Date | null; scopes: string[] }> = {}) => ({
  expires_at: later,
  revoked_at: null,
  scopes: ["releases:write"],
  ...over,
});

describe("scopes", () => {
  it("knows releases:write, licenses:read and events:read", () => {
    expect([...API_TOKEN_SCOPES]).toEqual(["releases:write", "licenses:read", "events:read"]);
  });

  it("keeps known scopes once, in the list's order", () => {
    expect(parseScopes(["events:read", "releases:write", "events:read"])).toEqual({
      scopes: ["releases:write", "events:read"],
      error: null,
    });
  });

  it("refuses unknown scopes by name, and an empty list", () => {
    expect(parseScopes(["releases:write", "admin", "licenses:write"]).error).toBe(
      "Unknown scope admin, licenses:write: use releases:write, licenses:read, events:read.",
    );
    expect(parseScopes([]).error).toBe("Choose at least one scope.");
  });
});

describe("the token form", () => {
  const parse = (values: Record<string, unknown>) =>
    tokenFormSchema.safeParse({ name: "CI", scopes: ["releases:write"], expires_in_days: "90", ...values });

  it("takes a name, scopes and 1 to 365 days", () => {
    expect(parse({ name: "  Build pipeline " }).data).toEqual({
      name: "Build pipeline",
      scopes: ["releases:write"],
      expires_in_days: 90,
    });
    expect(parse({ expires_in_days: "365" }).success).toBe(true);
  });

  it("refuses a blank name, no or unknown scopes, and expiries out of range", () => {
    for (const bad of [
      { name: " " },
      { scopes: [] },
      { scopes: ["root"] },
      { expires_in_days: "0" },
      { expires_in_days: "366" },
      { expires_in_days: "soon" },
      { expires_in_days: "-5" },
    ]) {
      expect(parse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("using a token", () => {
  it("reads only a Bearer Authorization header", () => {
    expect(bearerToken("Bearer fkt_abc")).toBe("fkt_abc");
    expect(bearerToken("bearer  fkt_abc ")).toBe("fkt_abc");
    for (const other of [undefined, "", "Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "fkt_abc"]) {
      expect(bearerToken(other)).toBeNull();
    }
  });

  it("knows a token's shape: fkt_ and 43 base64url characters", () => {
    expect(isTokenShaped(`fkt_${"a".repeat(43)}`)).toBe(true);
    expect(isTokenShaped(`fkt_${"a".repeat(42)}`)).toBe(false);
    expect(isTokenShaped(`xyz_${"a".repeat(43)}`)).toBe(false);
  });

  it("is active until it expires or is revoked", () => {
    expect(tokenStatus(token(), now)).toBe("active");
    expect(tokenStatus(token({ expires_at: now }), now)).toBe("expired");
    expect(tokenStatus(token({ expires_at: earlier }), now)).toBe("expired");
    expect(tokenStatus(token({ revoked_at: earlier, expires_at: earlier }), now)).toBe("revoked");
  });

  it("answers 401 naming expiry or revocation, 403 naming a missing scope, nothing when allowed", () => {
    expect(refuseToken(token(), "releases:write", now)).toBeNull();
    expect(refuseToken(token({ expires_at: earlier }), "releases:write", now)).toMatchObject({
      status: 401,
      code: "token_expired",
      error: "The API token has expired.",
    });
    expect(refuseToken(token({ revoked_at: earlier }), "releases:write", now)).toMatchObject({
      status: 401,
      code: "token_revoked",
    });
    expect(refuseToken(token({ scopes: ["licenses:read"] }), "releases:write", now)).toEqual({
      status: 403,
      code: "scope_missing",
      error: "The API token lacks the scope releases:write.",
    });
  });
});
