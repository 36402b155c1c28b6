import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as rootRoute from "~/root";
import * as adminLayout from "~/routes/admin/layout";
import * as billingRoute from "~/routes/billing";
import * as licensesRoute from "~/routes/licenses";
import * as profileRoute from "~/routes/profile";
import { SIGNED_IN_CACHED_PAGES } from "~/server/cache/signed-in-answers.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { ADMIN_PAGES } from "../../support/admin-pages";
import { throughAdminGuard } from "../../support/admin-route";
import { call, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { statementsOf } from "../../support/statements";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const ENGINES = testEngines({
  pglite: "always",
  because: "the change triggers are heard through PGlite's own listener",
});

// The signed-in pages kept in memory (decision 0028, docs/caching.md) are forgotten when the database
// announces a change of something they show: migration 0015's trigger `announce_user_change` on every
// table they read. This runs each cached page's loaders (and the root loader that renders with them)
// on a seeded database, collects the tables named in the SQL they send, and checks that each one has
// the trigger, so that a page reading a new table cannot silently be served stale.

/** Tables the cached pages read that are forgotten by other means, and why. */
const ANNOUNCED_OTHERWISE: Record<string, string> = {
  // Releases show on the admin area: the app announces every release change on PUBLIC_PAGES_CHANNEL
  // (app/server/admin/manage-releases.server.ts), which forgets pages that show other users' data too.
  releases: "announced by the app on the public-pages channel",
  // The admin overview's summaries (migration 0041) are written only by the triggers of licenses,
  // payments and user_events, in the transaction of the row's change, which those tables announce.
  admin_license_days: "kept by the trigger of licenses, which are announced",
  admin_trial_days: "kept by the trigger of licenses, which are announced",
  admin_refund_days: "kept by the trigger of licenses, which are announced",
  admin_payment_days: "kept by the trigger of payments, which are announced",
  admin_new_months: "kept by the triggers of licenses and payments, which are announced",
  admin_plan_change_months: "kept by the trigger of user_events, which are announced",
  // The last months' cancel answers: an answer is written in the transaction that changes its license
  // (renewal cancelled, or the offer's outcome), whose trigger announces it.
  admin_cancel_months: "kept by the trigger of cancel_answers, written only with a change of its license",
};
/** pg-boss's queue (the admin overview's job figures): the admin page is kept ten seconds only. */
const JOB_QUEUE_SCHEMA = "pgboss";

type Loader = (args: any) => unknown;

/** Every cached page (the key of SIGNED_IN_CACHED_PAGES without `.data`) and how to run its loaders. */
const CACHED_LOADERS: Record<string, (cookie: string) => Promise<unknown>[]> = {
  "/licenses": (cookie) => [page(licensesRoute.loader, "/licenses", cookie)],
  "/billing": (cookie) => [page(billingRoute.loader, "/billing", cookie)],
  "/profile": (cookie) => [page(profileRoute.loader, "/profile", cookie)],
  ...Object.fromEntries(
    Object.entries(ADMIN_PAGES).map(([path, loader]) => [
      path,
      (cookie: string) => [
        call(() => throughAdminGuard(loader, getRequest(path, cookie))),
        call(() => throughAdminGuard(adminLayout.loader, getRequest(path, cookie))),
      ],
    ]),
  ),
};

function page(loader: Loader, path: string, cookie: string) {
  return call(() => loader(routeArgs(getRequest(path, cookie))));
}

/** Relation names after FROM or JOIN (`"x"`, `x`, `"schema"."x"`), not yet checked to be tables. */
function namedAfterFromOrJoin(statement: string): string[] {
  const names: string[] = [];
  for (const match of statement.matchAll(
    /\b(?:from|join)\s+("?[a-z_][\w]*"?(?:\s*\.\s*"?[a-z_][\w]*"?)?)(?!\s*\()/gi,
  )) {
    names.push(match[1]!.replace(/"|\s/g, "").toLowerCase());
  }
  return names;
}

describe.each(ENGINES)("every table the cached pages read announces its changes (%s)", (engine) => {
  let app: TestApp;
  let tables: Set<string>;

  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(app.database.db);
    const [admin, user] = DEMO_ACCOUNTS;
    const cookies = {
      user: await signInCookie(user!.email, user!.password),
      admin: await signInCookie(admin!.email, admin!.password),
    };
    const statements = await statementsOf(app, async () => {
      for (const [path, run] of Object.entries(CACHED_LOADERS)) {
        const cookie = path.startsWith("/admin") ? cookies.admin : cookies.user;
        const results = await Promise.all([page(rootRoute.loader, path, cookie), ...run(cookie)]);
        // A loader that refused (a redirect to /login) would read nothing worth checking.
        for (const result of results) expect((result as { status: number }).status, path).toBe(200);
      }
    });
    // What the regex found, kept only where it names a table of the database (`extract(… from x)`
    // and aliases are not tables).
    const relations = await app.database.db.execute<{ name: string }>(
      sql`select case when table_schema = 'public' then table_name else table_schema || '.' || table_name end as name
          from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    const known = new Set(rowsOf<{ name: string }>(relations).map((row) => row.name.toLowerCase()));
    tables = new Set(
      statements
        .flatMap(namedAfterFromOrJoin)
        .map((name) => name.replace(/^public\./, ""))
        .filter((name) => known.has(name)),
    );
  }, 120_000);
  afterAll(async () => app?.close());

  it("runs the loaders of every page the signed-in cache keeps", () => {
    const pages = [...SIGNED_IN_CACHED_PAGES].filter((path) => !path.endsWith(".data"));
    expect(Object.keys(CACHED_LOADERS).sort()).toEqual(pages.sort());
  });

  it("finds the tables the pages show (the collection works)", () => {
    for (const table of ["licenses", "payments", "sessions", "users", "profiles", "audit_log", "releases"]) {
      expect([...tables], table).toContain(table);
    }
  });

  it("every table read has migration 0015's trigger, or is announced otherwise", async () => {
    const triggered = await app.database.db.execute<{ name: string }>(
      sql`select c.relname as name from pg_trigger t
          join pg_class c on c.oid = t.tgrelid
          join pg_namespace n on n.oid = c.relnamespace
          join pg_proc p on p.oid = t.tgfoid
          where p.proname = 'announce_user_change' and n.nspname = 'public' and not t.tgisinternal`,
    );
    const announced = new Set(rowsOf<{ name: string }>(triggered).map((row) => row.name));
    const silent = [...tables].filter(
      (table) => !announced.has(table) && !(table in ANNOUNCED_OTHERWISE) && !table.startsWith(`${JOB_QUEUE_SCHEMA}.`),
    );
    expect(silent, "tables read by a cached page whose changes nobody announces").toEqual([]);
    // The exceptions are still read (or they would be dead weight here).
    for (const table of Object.keys(ANNOUNCED_OTHERWISE)) expect([...tables]).toContain(table);
  });
});

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
