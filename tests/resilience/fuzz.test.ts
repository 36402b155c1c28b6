import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeader } from "~/server/billing/webhook-signature.server";
import { openDatabase } from "~/server/db/client.server";
import { rowsOf, snapshotTables, type TableSnapshot } from "../support/db-snapshot";
import { formPost, rawRequest, signIn, type RawResponse } from "../support/raw-http";
import { REPO_ROOT, startServer, tempDir, type ServerProcess } from "../support/server-process";

/**
 * Generated bad input, sent over HTTP to the built server (embedded PGlite, demo checkout) at
 * every route with an action and at the two API routes, signed out, as a user, as another user
 * (with the first one's license ids) and as an admin: wrong content types and methods, bodies
 * over the limits (plain and chunked), malformed percent-encoding and multipart, raw bytes,
 * control characters and NUL, lone surrogates, duplicate and array-style fields, missing fields,
 * huge and odd numbers, wrong intents, Origin headers from the site, from elsewhere, "null",
 * malformed, and none. Nothing may answer 5xx, and no table may change but those that count
 * attempts (rate_limits, sign_in_failures) and sessions (a correct sign-in with a bad redirectTo
 * signs in, and sessions are refreshed while in use). Otherwise-valid forms with a control
 * character in a text field answer 400; bodies over the limit answer 413.
 */

const PORT = 4331;
const SEED = 10_2025;
/** Generated requests; the fixed checks come on top. About a minute on two cores. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1400);
const CONCURRENCY = 6;
const SECRET = "whsec_fuzz_secret_0123456789abcdef";
const PASSWORD = "fuzz-pass-1";
const EXCLUDED_TABLES = ["rate_limits", "sign_in_failures", "sessions"];
/**
 * Columns any valid request may change: the time of the last sign-in (written with each session),
 * and the reminder e-mails switch (with its row's updated_at), a checkbox whose absence from a
 * form means "off".
 */
const IGNORED_COLUMNS = { profiles: ["last_sign_in_at"], users: ["reminder_emails", "updated_at"] };
const NO_SUCH_USER = "00000000-0000-4000-8000-00000000f022";
const FORM_LIMIT = 64 * 1024;
const LARGE_LIMIT = 1024 * 1024;

type Identity = "anon" | "user" | "attacker" | "admin";
type Expectation = "no-5xx" | "400" | "413" | "home";
interface FuzzCase {
  label: string;
  identity: Identity;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer | Buffer[];
  expect: Expectation;
}

/** Route paths whose module exports an action, read from app/routes.ts. */
function actionRoutes(): string[] {
  const table = fs.readFileSync(path.join(REPO_ROOT, "app/routes.ts"), "utf8");
  const paths: string[] = [];
  for (const match of table.matchAll(/route\("([^"]+)",\s*"([^"]+)"\)|index\("([^"]+)"\)/g)) {
    const [urlPath, file] = match[3] ? ["", match[3]] : [match[1]!, match[2]!];
    const source = fs.readFileSync(path.join(REPO_ROOT, "app", file), "utf8");
    if (/export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b/.test(source)) paths.push(`/${urlPath}`);
  }
  return paths.sort();
}

/** The fields each action reads, and its intents. */
const ROUTES: Record<string, { fields: string[]; intents?: string[]; signedIn?: boolean }> = {
  "/register": { fields: ["full_name", "email", "password", "company_name", "terms"] },
  "/login": { fields: ["email", "password", "redirectTo"] },
  "/forgot-password": { fields: ["email"] },
  "/confirm-email": { fields: ["email"] },
  "/reset-password": { fields: ["token", "password", "confirm"], intents: ["verify", "reset"] },
  "/profile": {
    fields: ["full_name", "company_name", "email", "password", "code", "currentPassword", "newPassword", "sessionId"],
    intents: [
      "two-factor-start",
      "two-factor-confirm",
      "two-factor-disable",
      "password-change",
      "session-revoke",
      "sessions-revoke-others",
      "account-delete",
    ],
    signedIn: true,
  },
  "/licenses": {
    fields: ["licenseId", "windows_username", "computer_name"],
    intents: ["offline-data", "cancel-renewal", "reenable-renewal", "request-refund"],
    signedIn: true,
  },
  "/extend-license": { fields: ["licenseId", "months", "years"], signedIn: true },
  "/pricing": { fields: ["plan", "transactionId"], intents: ["checkout", "demo-pay", "demo-checkout"], signedIn: true },
  "/admin": {
    fields: ["licenseId", "userId", "days", "id", "version", "title", "release_date", "release_notes"],
    intents: ["revoke", "add-tester", "save-release", "delete-release"],
    signedIn: true,
  },
  // A user's admin page (the path's :userId is a user that does not exist: garbage days would
  // otherwise rightly become a 30-day tester license for a real one, per the tester-days rule).
  "/admin/users/:userId": {
    fields: ["licenseId", "reason", "days"],
    intents: ["revoke", "add-tester", "reset-offline", "resend-license"],
    signedIn: true,
  },
  "/billing/payment-method": { fields: ["licenseId"], intents: ["start", "demo-pay"], signedIn: true },
  "/login/oauth": { fields: ["provider", "redirectTo"] },
  "/login/two-factor": { fields: ["code", "redirectTo"] },
  "/profile/reminders": { fields: ["reminder_emails"], signedIn: true },
  "/logout": { fields: [] },
  "/api/webhooks/paddle": { fields: [] },
  "/api/demo/renew": { fields: [] },
};

const ODD_VALUES = [
  "",
  " ",
  "[]",
  "{}",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "0",
  "1e308",
  "1e309",
  "-0",
  "99999999999999999999999999",
  "-99999999999999999999",
  "9007199254740993",
  "0x7fffffff",
  "1_000",
  "½",
  "__proto__",
  "constructor",
  "toString",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "\ud800",
  "\udfff",
  "x\ud800y",
  "a\u0000b",
  "\u0000",
  "\u202e",
  "\ufeff",
  "%00",
  "%",
  "%zz",
  "\r\nSet-Cookie: x=1",
  "00000000-0000-0000-0000-000000000000",
  "not-a-uuid",
  "sub_demo_x",
  "txn_demo_x",
  "A".repeat(5000),
];
/** Control characters no text field takes; multi-line fields may keep tab, CR and LF. */
const CONTROL = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u000b",
  "\u000c",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u009f",
];
const CONTROL_MULTILINE = CONTROL.filter((c) => !"\t\n\r".includes(c));
const NOT_NUMBERS = [
  "",
  "NaN",
  "-1",
  "-5",
  "1.5",
  "13",
  "1e308",
  "1e999",
  "99999999999999999999",
  "Infinity",
  "[]",
  "abc",
  "\u0000",
  "0x10",
];

const garbage = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_VALUES) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);
const originArb = fc.constantFrom<"site" | "none" | "foreign" | "null" | "malformed">(
  "site",
  "site",
  "site",
  "site",
  "none",
  "none",
  "foreign",
  "null",
  "malformed",
);

function originHeader(kind: "site" | "none" | "foreign" | "null" | "malformed"): Record<string, string> {
  switch (kind) {
    case "site":
      return { Origin: `http://127.0.0.1:${PORT}` };
    case "foreign":
      return { Origin: "http://evil.example" };
    case "null":
      return { Origin: "null" };
    case "malformed":
      return { Origin: "::not a url::" };
    default:
      return {};
  }
}

/** x-www-form-urlencoded as a browser writes it (lone surrogates become U+FFFD on the way). */
function urlencoded(fields: [string, string][]): Buffer {
  return Buffer.from(new URLSearchParams(fields).toString());
}

function multipart(fields: [string, string][], boundary: string): Buffer {
  const parts = fields.map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, "%22")}"\r\n\r\n${v}\r\n`,
  );
  return Buffer.from(`${parts.join("")}--${boundary}--\r\n`);
}

describe("fuzz: generated bad input to every action and API route of the built server", () => {
  let server: ServerProcess | undefined;
  let dataDir: string;
  const cookies: Record<Identity, string> = { anon: "", user: "", attacker: "", admin: "" };
  let ids: { userLicenses: string[]; freshLicense: string; demoUser: string; release: string };
  let before: TableSnapshot;

  beforeAll(async () => {
    dataDir = tempDir("fk-fuzz-");
    const env = { AUTH_RATE_LIMIT: "1000000", DEMO_WEBHOOK_SECRET: SECRET };
    // First run: migrate and seed, and register a second user (the attacker).
    server = await startServer({ port: PORT, dataDir, env });
    const registered = await formPost(PORT, "/register", {
      full_name: "Mallory Fuzz",
      email: "mallory@example.com",
      password: PASSWORD,
      terms: "on",
    });
    expect(registered.status, registered.body.slice(0, 300)).toBe(302);
    await server.stop();
    // Between runs, with the site stopped: confirm the attacker, note ids, take the snapshot.
    const handle = await openDatabase({ dataDir });
    try {
      await rowsOf(handle.db, "update users set email_verified = true where email = 'mallory@example.com'");
      const licenses = await rowsOf<{
        id: string;
        windows_username: string | null;
        computer_name: string | null;
        status: string;
      }>(
        handle.db,
        "select l.id, l.windows_username, l.computer_name, l.status from licenses l join users u on u.id = l.user_id where u.email = 'demo@forgekit.example' order by l.created_at",
      );
      const [demo] = await rowsOf<{ id: string }>(
        handle.db,
        "select id from users where email = 'demo@forgekit.example'",
      );
      const [release] = await rowsOf<{ id: string }>(handle.db, "select id from releases limit 1");
      ids = {
        userLicenses: licenses.map((l) => l.id),
        freshLicense: licenses.find((l) => !l.windows_username && !l.computer_name && l.status === "active")!.id,
        demoUser: demo!.id,
        release: release!.id,
      };
      before = await snapshotTables(handle.db, { exclude: EXCLUDED_TABLES, ignoreColumns: IGNORED_COLUMNS });
    } finally {
      await handle.close();
    }
    server = await startServer({ port: PORT, dataDir, env });
    cookies.user = await signIn(PORT, "demo@forgekit.example", "user-demo-1");
    cookies.attacker = await signIn(PORT, "mallory@example.com", PASSWORD);
    cookies.admin = await signIn(PORT, "admin@forgekit.example", "admin-demo-1");
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("covers every route with an action in app/routes.ts", () => {
    expect(actionRoutes()).toEqual(Object.keys(ROUTES).sort());
  });

  it("a cross-site POST /logout (no component: React Router's Origin check does not cover it) signs nobody out", async () => {
    const cookie = await signIn(PORT, "mallory@example.com", PASSWORD);
    for (const origin of ["http://evil.example", "null"]) {
      const response = await formPost(PORT, "/logout", {}, { cookie, origin });
      expect(response.status).toBeLessThan(500);
      const profile = await rawRequest({ port: PORT, method: "GET", path: "/profile", headers: { Cookie: cookie } });
      expect(profile.status, `still signed in after a POST /logout from Origin ${origin}`).toBe(200);
    }
  });

  it("answers no 5xx, refuses what it must, and writes nothing", { timeout: 600_000 }, async () => {
    const cases = [...fixedCases(), ...fc.sample(generatedCase(), { seed: SEED, numRuns: RUNS })];
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const headers = { ...c.headers };
        if (cookies[c.identity]) headers.Cookie = cookies[c.identity];
        const response = await rawRequest({
          port: PORT,
          method: c.method,
          path: c.path.replace(":userId", NO_SUCH_USER),
          headers,
          body: c.body,
          timeoutMs: 60_000,
        });
        statuses.set(String(response.status), (statuses.get(String(response.status)) ?? 0) + 1);
        const problem = check(c, response);
        if (problem)
          failures.push(
            `${problem}: ${describeCase(c)} → ${response.status} ${response.error ?? ""} ${response.body.slice(0, 200).replace(/\s+/g, " ")}`,
          );
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const summary = [...statuses]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ");
    console.log(`[fuzz] requests sent: ${cases.length} (${RUNS} generated, seed ${SEED}); statuses: ${summary}`);

    // Still up, and still signed in as everyone (no generated request signed anyone out).
    expect((await fetch(`http://127.0.0.1:${PORT}/healthz`)).status).toBe(200);
    for (const [identity, page] of [
      ["user", "/profile"],
      ["attacker", "/profile"],
      ["admin", "/admin"],
    ] as const) {
      const response = await rawRequest({
        port: PORT,
        method: "GET",
        path: page,
        headers: { Cookie: cookies[identity] },
      });
      if (response.status !== 200)
        failures.push(
          `[signed out] ${identity} is no longer signed in: GET ${page} → ${response.status} ${response.headers.location ?? ""}`,
        );
    }
    await server!.stop();
    server = undefined;
    const handle = await openDatabase({ dataDir });
    let after: TableSnapshot;
    try {
      after = await snapshotTables(handle.db, { exclude: EXCLUDED_TABLES, ignoreColumns: IGNORED_COLUMNS });
    } finally {
      await handle.close();
    }
    if (failures.length) {
      // One example per kind of failure (the problem and the case's label), with how many.
      const kinds = new Map<string, { count: number; example: string }>();
      for (const f of failures) {
        const kind = f.slice(0, f.indexOf("]") + 1);
        const entry = kinds.get(kind) ?? { count: 0, example: f };
        entry.count++;
        kinds.set(kind, entry);
      }
      if (process.env.FUZZ_VERBOSE) console.log(failures.join("\n"));
      console.log(
        `[fuzz] ${failures.length} failures, ${kinds.size} kinds:\n${[...kinds.values()].map((k) => `${k.count} × ${k.example}`).join("\n")}`,
      );
    }
    expect([...new Set(failures.map((f) => f.slice(0, f.indexOf("]") + 1)))]).toEqual([]);
    expect(after).toEqual(before);
  });

  function check(c: FuzzCase, response: RawResponse): string | null {
    const { status } = response;
    if (status === "timeout") return "no answer within 60 s";
    if (status === "reset") return c.expect === "413" ? null : "connection closed without an answer";
    if (status >= 500) return `server error ${status}`;
    // A chunked body's size shows only as it is read: an answer from the headers alone (a signed-in
    // user sent away from /login, 401/403) need not read it.
    const answeredUnread =
      Array.isArray(c.body) && ((status >= 300 && status < 400) || status === 401 || status === 403);
    if (c.expect === "413" && status !== 413 && !answeredUnread) return "expected 413 for a body over the limit";
    if (c.expect === "400" && status !== 400) return "expected 400 for a control character in a text field";
    if (c.expect === "home") {
      const location = response.headers.location;
      if (status < 300 || status >= 400 || location !== "/")
        return `expected a redirect to / (Location: ${JSON.stringify(location)})`;
    }
    return null;
  }

  function describeCase(c: FuzzCase): string {
    const ct = c.headers["Content-Type"] ?? "(no type)";
    const origin = c.headers.Origin ?? "(no Origin)";
    const body = Array.isArray(c.body)
      ? `chunked ${c.body.reduce((n, b) => n + b.length, 0)} bytes`
      : c.body
        ? JSON.stringify(c.body.subarray(0, 160).toString("latin1"))
        : "(no body)";
    return `[${c.label}] ${c.identity} ${c.method} ${c.path} ${ct} Origin=${origin} ${body}`;
  }

  /** Otherwise-valid requests with one bad part that must be refused (or, for redirectTo, ignored). */
  function fixedCases(): FuzzCase[] {
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
      cases.push(form("admin", "/admin", release(x(`9.${n}.0`), "Fuzz", "A note"), "400", "release version"));
      cases.push(form("admin", "/admin", release(`9.${n}.1`, x("Fuzz release"), "A note"), "400", "release title"));
      if (CONTROL_MULTILINE.includes(c))
        cases.push(form("admin", "/admin", release(`9.${n}.2`, "Fuzz", x("A release note")), "400", "release note"));
      cases.push({
        label: "admin search",
        identity: "admin",
        method: "GET",
        path: `/admin?q=${encodeURIComponent(x("demo"))}`,
        headers: {},
        expect: "400",
      });
    }
    // Over the limits, declared and chunked, on every route.
    for (const p of Object.keys(ROUTES)) {
      const limit = p === "/api/webhooks/paddle" || p === "/admin" ? LARGE_LIMIT : FORM_LIMIT;
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

  /** One generated bad request (fast-check). */
  function generatedCase(): fc.Arbitrary<FuzzCase> {
    let eventNumber = 0;
    const identityArb = fc.constantFrom<Identity>("anon", "user", "attacker", "admin");
    const pageRoutes = Object.keys(ROUTES).filter((p) => !p.startsWith("/api/"));

    const idValue = (identity: Identity, intent: string | null) =>
      fc.oneof(
        garbage,
        fc.uuid().map(String),
        // Another user's licenses: the attacker may name them with any intent, the owner only with none that acts.
        identity === "attacker" ||
          (identity === "user" && (intent === null || !ROUTES["/licenses"]!.intents!.includes(intent)))
          ? fc.constantFrom(...ids.userLicenses)
          : fc.uuid().map(String),
      );

    const formCase = fc
      .record({
        identity: identityArb,
        route: fc.constantFrom(...pageRoutes),
        intentKind: fc.constantFrom("valid", "wrong", "missing", "duplicate"),
        intentPick: fc.nat(),
        wrongIntent: garbage,
        fieldMode: fc.array(fc.constantFrom("omit", "garbage", "duplicate", "array", "poison"), {
          minLength: 10,
          maxLength: 10,
        }),
        values: fc.array(garbage, { minLength: 30, maxLength: 30 }),
        extra: fc.array(fc.tuple(garbage, garbage), { maxLength: 3 }),
        origin: originArb,
        encoding: fc.constantFrom(
          "urlencoded",
          "urlencoded",
          "urlencoded",
          "urlencoded",
          "multipart",
          "multipart-broken",
          "json",
          "text",
          "none",
          "utf16",
          "raw-percent",
          "bytes",
        ),
        bytes: fc.uint8Array({ maxLength: 300 }),
        target: fc.constantFrom("plain", "plain", "plain", "data", "index", "query"),
        method: fc.constantFrom("POST", "POST", "POST", "POST", "POST", "PUT", "PATCH", "DELETE"),
        poison: fc.constantFrom(...CONTROL, "\ud800", "\udc00"),
        ids: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
      })
      .chain((r) => {
        const spec = ROUTES[r.route]!;
        const intent =
          r.intentKind === "valid" && spec.intents
            ? spec.intents[r.intentPick % spec.intents.length]!
            : r.intentKind === "missing"
              ? null
              : r.wrongIntent;
        // Never a plan, e-mail or session change that could legitimately succeed: these keep it bad.
        return fc
          .constant({ r, spec, intent })
          .chain(({ r, spec, intent }) =>
            fc.tuple(
              fc.constant(r),
              fc.constant(spec),
              fc.constant(intent),
              idValue(r.identity, intent),
              fc.constantFrom(...NOT_NUMBERS),
            ),
          );
      })
      .map(([r, spec, intent, id, notNumber]): FuzzCase => {
        const fields: [string, string][] = [];
        if (intent !== null) fields.push(["intent", intent]);
        if (r.intentKind === "duplicate" && spec.intents)
          fields.push(["intent", spec.intents[(r.intentPick + 1) % spec.intents.length]!]);
        spec.fields.forEach((name, i) => {
          const mode = r.fieldMode[i % r.fieldMode.length]!;
          let value = r.values[i]!;
          if (name === "licenseId" || name === "userId" || name === "id" || name === "transactionId") value = id;
          if (name === "userId" || (r.identity === "admin" && name === "licenseId")) value = r.values[i]!; // never a real user or license for the admin
          if (name === "months") value = notNumber; // an extension is never valid
          if (name === "plan") value = `${r.values[i]!}${r.poison}`; // never a plan id
          if (name === "password") value = r.values[i]!.slice(0, 5); // too short for a new password, and never the real one
          if (name === "email") value = `${r.values[i]!}${r.poison}@`; // never a valid address
          if (mode === "omit") return;
          if (mode === "poison") value = `${value}${r.poison}`;
          if (mode === "array") name = `${name}[]`;
          fields.push([name, value]);
          if (mode === "duplicate") fields.push([name, r.values[i + 10]!]);
        });
        fields.push(...r.extra);
        const boundary = "----fuzz" + r.ids.join("");
        let contentType: string | undefined;
        let body: Buffer | undefined;
        switch (r.encoding) {
          case "urlencoded":
            [contentType, body] = ["application/x-www-form-urlencoded", urlencoded(fields)];
            break;
          case "multipart":
            [contentType, body] = [`multipart/form-data; boundary=${boundary}`, multipart(fields, boundary)];
            break;
          case "multipart-broken":
            [contentType, body] = [
              r.ids[0]! % 2 ? "multipart/form-data" : `multipart/form-data; boundary=${boundary}`,
              multipart(fields, boundary).subarray(0, 40 + (r.ids[1]! % 100)),
            ];
            break;
          case "json":
            [contentType, body] = ["application/json", Buffer.from(JSON.stringify(Object.fromEntries(fields)))];
            break;
          case "text":
            [contentType, body] = [
              "text/plain;charset=UTF-8",
              Buffer.from(fields.map(([k, v]) => `${k}=${v}`).join("\r\n")),
            ];
            break;
          case "none":
            [contentType, body] = [undefined, urlencoded(fields)];
            break;
          case "utf16":
            [contentType, body] = [
              "application/x-www-form-urlencoded; charset=utf-16",
              Buffer.from(new URLSearchParams(fields).toString(), "utf16le"),
            ];
            break;
          case "raw-percent":
            [contentType, body] = [
              "application/x-www-form-urlencoded",
              Buffer.concat([
                urlencoded(fields),
                Buffer.from(
                  `&${r.values[29]!.length % 2 ? "email" : "intent"}=%E0%A4&x=%zz&y=%&z=%C0%AF&%ED%A0%80=%ED%A0%80`,
                ),
              ]),
            ];
            break;
          default:
            [contentType, body] = ["application/x-www-form-urlencoded", Buffer.from(r.bytes)];
        }
        let p = r.route;
        if (r.target === "data") p = `${p}.data`;
        if (r.target === "index") p = `${p}?index`;
        if (r.target === "query")
          p = `${p}?redirectTo=${encodeURIComponent(r.values[3]!)}&_data=routes%2F${r.route.slice(1)}`;
        const headers: Record<string, string> = { ...originHeader(r.origin) };
        if (contentType) headers["Content-Type"] = contentType;
        // Signing out is the one action any request may do: signed out only (cross-site sign-outs have their own test).
        const identity = r.route === "/logout" ? "anon" : r.identity;
        return { label: `form ${r.encoding}`, identity, method: r.method, path: p, headers, body, expect: "no-5xx" };
      });

    const webhookCase = fc
      .record({
        signed: fc.constantFrom("good", "good", "good", "none", "garbage", "stale"),
        shape: fc.constantFrom("event", "event", "json", "text", "deep", "bigint", "surrogate"),
        type: fc.constantFrom(
          "transaction.completed",
          "subscription.updated",
          "subscription.canceled",
          "adjustment.updated",
          "adjustment.created",
          "customer.updated",
          "x",
        ),
        data: fc.jsonValue({ maxDepth: 3 }),
        json: fc.json({ maxDepth: 3 }),
        text: garbage,
        identity: identityArb,
        origin: originArb,
      })
      .map((r): FuzzCase => {
        let raw: string;
        switch (r.shape) {
          case "event":
            raw = JSON.stringify({
              event_id: `evt_fuzz_${++eventNumber}`,
              event_type: r.type,
              occurred_at: new Date().toISOString(),
              notification_id: "ntf_x",
              data: r.data,
            });
            break;
          case "json":
            raw = r.json;
            break;
          case "deep":
            raw = "[".repeat(50_000) + "]".repeat(50_000);
            break;
          case "bigint":
            raw = `{"event_id":"evt_1","event_type":"${r.type}","occurred_at":1e400,"data":{"id":123456789012345678901234567890,"items":[1e999]}}`;
            break;
          case "surrogate":
            raw = `{"event_id":"evt_\\ud800","event_type":"${r.type}","occurred_at":"2031-01-01T00:00:00Z","data":{"id":"sub_\\udfff","custom_data":{"user_id":"\\ud800"}}}`;
            break;
          default:
            raw = r.text;
        }
        const headers: Record<string, string> = { "Content-Type": "application/json", ...originHeader(r.origin) };
        if (r.signed === "good") headers["Paddle-Signature"] = signatureHeader(SECRET, raw);
        if (r.signed === "stale")
          headers["Paddle-Signature"] = signatureHeader(SECRET, raw, new Date(Date.now() - 3_600_000));
        if (r.signed === "garbage")
          headers["Paddle-Signature"] = `ts=${r.text};h1=${r.text}`.replace(/[^\x20-\x7e]/g, "?");
        return {
          label: `webhook ${r.signed} ${r.shape}`,
          identity: r.identity,
          method: "POST",
          path: "/api/webhooks/paddle",
          headers,
          body: Buffer.from(raw),
          expect: "no-5xx",
        };
      });

    const renewCase = fc
      .record({
        auth: fc.constantFrom("good", "good", "none", "garbage", "basic"),
        body: fc.oneof(
          fc
            .jsonValue({ maxDepth: 2 })
            .map((v) =>
              JSON.stringify(
                v && typeof v === "object" && !Array.isArray(v) && (v as { all?: unknown }).all === true
                  ? { ...v, all: "yes" }
                  : v,
              ),
            ),
          garbage.map((g) => JSON.stringify({ subscriptionId: g })),
          garbage.map((g) => JSON.stringify({ subscriptionId: [g], all: g })),
          garbage,
        ),
        type: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded"),
        identity: identityArb,
        method: fc.constantFrom("POST", "POST", "PUT", "DELETE"),
      })
      .map((r): FuzzCase => {
        const headers: Record<string, string> = { "Content-Type": r.type };
        if (r.auth === "good") headers.Authorization = `Bearer ${SECRET}`;
        if (r.auth === "garbage") headers.Authorization = `Bearer ${SECRET.slice(0, -1)}x`;
        if (r.auth === "basic") headers.Authorization = `Basic ${Buffer.from(`x:${SECRET}`).toString("base64")}`;
        return {
          label: `demo-renew ${r.auth}`,
          identity: r.identity,
          method: r.method,
          path: "/api/demo/renew",
          headers,
          body: Buffer.from(r.body),
          expect: "no-5xx",
        };
      });

    const headerCase = fc
      .record({
        route: fc.constantFrom(...Object.keys(ROUTES)),
        cookie: fc.constantFrom(
          "better-auth.session_token=%%%",
          "better-auth.session_token=" + "x".repeat(4000),
          "a=b; a=c; ; =;",
          "better-auth.session_token=\u00ff\u00fe",
        ),
      })
      .map((r): FuzzCase => ({
        label: "odd headers",
        identity: "anon",
        method: "POST",
        path: r.route,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: r.cookie.replace(/[^\x20-\x7e]/g, "?"),
          ...originHeader("site"),
        },
        body: Buffer.from("intent=x"),
        expect: "no-5xx",
      }));

    return fc.oneof(
      { weight: 14, arbitrary: formCase },
      { weight: 4, arbitrary: webhookCase },
      { weight: 2, arbitrary: renewCase },
      { weight: 1, arbitrary: headerCase },
    );
  }
});
