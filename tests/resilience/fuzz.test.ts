import fs from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
import { rowsOf, snapshotTables, type TableSnapshot } from "../support/db-snapshot";
import { formPost, rawRequest, signIn } from "../support/raw-http";
import { startServer, tempDir, type ServerProcess } from "../support/server-process";
import { fixedCases } from "./fuzz/fixed-cases";
import { generatedCase } from "./fuzz/generated-cases";
import { actionRoutes } from "../support/route-table";
import {
  check,
  describeCase,
  NO_SUCH_USER,
  PASSWORD,
  PORT,
  ROUTES,
  SECRET,
  type FuzzIds,
  type Identity,
} from "./fuzz/requests";

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

const SEED = 10_2025;
/** Generated requests; the fixed checks come on top. About a minute on two cores. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1400);
const CONCURRENCY = 6;
/**
 * Besides the attempt counters and sessions: the customer's timeline (user_events), which records the
 * set-up's sign-ins and every e-mail sent; the once-only job keys, which the hourly scans fill by the
 * clock (a seeded trial ending within days queues its reminder); and the demo mailbox, which a valid
 * "resend the confirmation link" for the unconfirmed attacker account among the generated cases fills.
 * Every change an input could cause in the data itself still shows in the other tables.
 */
const EXCLUDED_TABLES = ["rate_limits", "sign_in_failures", "sessions", "user_events", "job_keys", "dev_mails"];
/**
 * Columns any valid request may change: the time of the last sign-in (written with each session),
 * the reminder e-mails switch (with its row's updated_at), a checkbox whose absence from a form
 * means "off", and the two-factor step last used (the admin's sign-in after the snapshot uses a
 * code, and each code works once).
 */
const IGNORED_COLUMNS = {
  // The buyer's billing details: any text is a valid billing name or address.
  profiles: ["last_sign_in_at", "billing_name", "billing_address", "billing_tax_id"],
  users: ["reminder_emails", "updated_at"],
  two_factors: ["last_totp_step"],
};
describe("fuzz: generated bad input to every action and API route of the built server", () => {
  let server: ServerProcess | undefined;
  let dataDir: string;
  const cookies: Record<Identity, string> = { anon: "", user: "", attacker: "", admin: "" };
  let ids: FuzzIds;
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
    const cases = [...fixedCases(ids), ...fc.sample(generatedCase(ids), { seed: SEED, numRuns: RUNS })];
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
});
