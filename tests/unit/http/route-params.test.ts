import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { badRouteParam, paramNames, ROUTE_PARAM_SHAPES } from "~/domain/route-params";
import { hasMalformedEncoding } from "~/domain/url-encoding";

const ROUTES_FILE = path.resolve(__dirname, "../../../app/routes.ts");
const UUID = "0b0f7a52-6d2c-4a6e-9d1e-2f1f4c3b5a69";

/** Every route path in app/routes.ts (route("…", …)). */
function routePaths(): string[] {
  const table = fs.readFileSync(ROUTES_FILE, "utf8");
  return [...table.matchAll(/route\("([^"]+)",/g)].map((m) => m[1]!);
}

describe("route parameters: one shape per name, for every route of the table", () => {
  it("every :parameter in app/routes.ts has a declared shape (a new one must be added to ROUTE_PARAM_SHAPES)", () => {
    const names = new Set(routePaths().flatMap(paramNames));
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) expect(ROUTE_PARAM_SHAPES, `:${name} has no shape`).toHaveProperty(name);
  });

  it("accepts ids of the right shape and names the first one of the wrong shape", () => {
    expect(badRouteParam({ userId: UUID, paymentId: "txn_01abc" })).toBeNull();
    expect(badRouteParam({ licenseId: UUID.toUpperCase() })).toBeNull();
    expect(badRouteParam({ teamId: UUID })).toBeNull();
    expect(badRouteParam({ "*": "any/thing" })).toBeNull();
    for (const wrong of [
      "not-a-uuid",
      "",
      `${UUID}x`,
      "00000000-0000-0000-0000-00000000000",
      "' or 1=1 --",
      "\u0000",
    ]) {
      expect(badRouteParam({ userId: wrong, paymentId: "txn_x" })).toBe("userId");
      expect(badRouteParam({ licenseId: wrong })).toBe("licenseId");
      expect(badRouteParam({ teamId: wrong })).toBe("teamId");
    }
    for (const wrong of ["x", "txn_", "txn_a-b", `txn_${"a".repeat(101)}`, UUID]) {
      expect(badRouteParam({ userId: UUID, paymentId: wrong })).toBe("paymentId");
    }
    // A parameter nobody declared is refused rather than passed to a loader unchecked.
    expect(badRouteParam({ releaseId: UUID })).toBe("releaseId");
  });
});

describe("addresses: malformed percent-encoding", () => {
  it.each([
    "/api/auth/callback/%C0%AE",
    "/%E0%A4%A",
    "/%ED%A0%80",
    "/%",
    "/a%zz",
    "/licenses/%FF/file",
    "/pricing?x=%C0%AE",
    "/pricing?%E0%A4%A=1",
    "/pricing?a=1&b=%",
    "/reset-password?token=%ED%A0%80",
  ])("%s is malformed", (target) => {
    expect(hasMalformedEncoding(target)).toBe(true);
  });

  it.each([
    "/",
    "/pricing",
    "/caf%C3%A9",
    "/%F0%9F%98%80",
    "/pricing?x=%C3%A9&y=a+b",
    "/login?redirectTo=%2Flicenses",
    "/x?%25=%25",
  ])("%s is well formed", (target) => {
    expect(hasMalformedEncoding(target)).toBe(false);
  });
});
