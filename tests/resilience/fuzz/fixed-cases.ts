// The fixed cases of the fuzz test (fuzz.test.ts): otherwise-valid requests with one bad part.
import {
  CONTROL,
  CONTROL_MULTILINE,
  FORM_LIMIT,
  LARGE_LIMIT,
  PASSWORD,
  ROUTES,
  originHeader,
  urlencoded,
  type Expectation,
  type FuzzCase,
  type FuzzIds,
  type Identity,
} from "./requests";

/** Otherwise-valid requests with one bad part that must be refused (or, for redirectTo, ignored). */
export function fixedCases(ids: FuzzIds): FuzzCase[] {
  const form = (
    identity: Identity,
    p: string,
    fields: [string, string][],
    expectation: Expectation,
    label: string,
  ): FuzzCase => ({
    label,
    identity,
    method: "POST",
    path: p,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...originHeader("site") },
    body: urlencoded(fields),
    expect: expectation,
  });
  const cases: FuzzCase[] = [];
  let n = 0;
  for (const c of CONTROL) {
    const x = (s: string) => `${s.slice(0, 3)}${c}${s.slice(3)}`;
    const email = `fuzz-${++n}@example.com`;
    cases.push(
      form(
        "anon",
        "/register",
        [
          ["full_name", x("Eve Example")],
          ["email", email],
          ["password", PASSWORD],
          ["terms", "on"],
        ],
        "400",
        "register full_name",
      ),
    );
    cases.push(
      form(
        "anon",
        "/register",
        [
          ["full_name", "Eve Example"],
          ["email", email],
          ["password", PASSWORD],
          ["company_name", x("Acme Inc")],
          ["terms", "on"],
        ],
        "400",
        "register company",
      ),
    );
    cases.push(
      form(
        "anon",
        "/register",
        [
          ["full_name", "Eve Example"],
          ["email", x(email)],
          ["password", PASSWORD],
          ["terms", "on"],
        ],
        "400",
        "register email",
      ),
    );
    cases.push(form("anon", "/forgot-password", [["email", x("demo@forgekit.example")]], "400", "forgot email"));
    cases.push(form("anon", "/confirm-email", [["email", x("mallory@example.com")]], "400", "resend email"));
    cases.push(
      form(
        "anon",
        "/login",
        [
          ["email", "demo@forgekit.example"],
          ["password", "user-demo-1"],
          ["redirectTo", `/licenses${c}x`],
        ],
        "home",
        "login redirectTo",
      ),
    );
    cases.push(
      form(
        "anon",
        "/login",
        [
          ["email", "demo@forgekit.example"],
          ["password", "user-demo-1"],
          ["redirectTo", `/${c}/evil.example`],
        ],
        "home",
        "login redirectTo",
      ),
    );
    cases.push(
      form(
        "user",
        "/profile",
        [
          ["full_name", x("Demo User")],
          ["company_name", ""],
          ["email", "demo@forgekit.example"],
        ],
        "400",
        "profile full_name",
      ),
    );
    cases.push(
      form(
        "user",
        "/profile",
        [
          ["full_name", "Demo User"],
          ["company_name", x("Demo Company")],
          ["email", "demo@forgekit.example"],
        ],
        "400",
        "profile company",
      ),
    );
    cases.push(
      form(
        "user",
        "/licenses",
        [
          ["intent", "offline-data"],
          ["licenseId", ids.freshLicense],
          ["windows_username", x("CORP\\alice")],
          ["computer_name", ""],
        ],
        "400",
        "offline-data username",
      ),
    );
    cases.push(
      form(
        "user",
        "/licenses",
        [
          ["intent", "offline-data"],
          ["licenseId", ids.freshLicense],
          ["windows_username", ""],
          ["computer_name", x("DESKTOP-01")],
        ],
        "400",
        "offline-data computer",
      ),
    );
    const release = (version: string, title: string, note: string): [string, string][] => [
      ["intent", "save-release"],
      ["version", version],
      ["title", title],
      ["release_date", "2031-01-02"],
      ["release_notes", note],
    ];
    cases.push(form("admin", "/admin/releases", release(x(`9.${n}.0`), "Fuzz", "A note"), "400", "release version"));
    cases.push(
      form("admin", "/admin/releases", release(`9.${n}.1`, x("Fuzz release"), "A note"), "400", "release title"),
    );
    if (CONTROL_MULTILINE.includes(c))
      cases.push(
        form("admin", "/admin/releases", release(`9.${n}.2`, "Fuzz", x("A release note")), "400", "release note"),
      );
    cases.push({
      label: "admin search",
      identity: "admin",
      method: "GET",
      path: `/admin/users?q=${encodeURIComponent(x("demo"))}`,
      headers: {},
      expect: "400",
    });
  }
  // Over the limits, declared and chunked, on every route.
  for (const p of Object.keys(ROUTES)) {
    const limit = p === "/api/webhooks/paddle" || p === "/admin/releases" ? LARGE_LIMIT : FORM_LIMIT;
    const type = p.startsWith("/api/") ? "application/json" : "application/x-www-form-urlencoded";
    const big = Buffer.alloc(limit + 1024, "a");
    big.write("email=");
    const chunk = Buffer.alloc(64 * 1024, "b");
    // Signing out reads no body: a signed-in POST /logout does what it says, whatever its size.
    for (const identity of p === "/logout" ? (["anon"] as const) : (["anon", "user"] as const)) {
      cases.push({
        label: "oversized",
        identity,
        method: "POST",
        path: p,
        headers: { "Content-Type": type, ...originHeader("site") },
        body: big,
        expect: "413",
      });
      cases.push({
        label: "oversized chunked",
        identity,
        method: "POST",
        path: p,
        headers: { "Content-Type": type, ...originHeader("site") },
        body: Array(Math.ceil((3 * 1024 * 1024) / chunk.length)).fill(chunk),
        expect: "413",
      });
    }
  }
  return cases;
}
