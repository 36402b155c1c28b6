import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { hashPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { middleware } from "~/routes/admin/layout";
import { adminGuard } from "~/http/admin-guard.server";
import { TWO_FACTOR_ENROL_PATH } from "~/server/auth/session.server";
import { openDatabase } from "~/server/db/client.server";
import { accounts, profiles, user_roles, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { formPost, rawRequest, signIn } from "../../support/raw-http";
import { siteTemplate } from "../../support/migrated-template";
import { freePort, scratchDatabaseFor } from "../../support/scratch";
import { REPO_ROOT, startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { testEngines } from "../../support/test-app";

/**
 * Every route under /admin, as the route table (app/routes.ts) lists it, asked for by a visitor, a
 * user, an admin without two-factor and an admin with it, as a page, as React Router's data request,
 * as a file and as a form post, on the real server: only the last one gets in. A new admin route
 * that is not under the admin layout's guard fails here (and in the first test, before any request).
 */

const GUARD_LAYOUT = "routes/admin/layout.tsx";
const [ADMIN, USER] = DEMO_ACCOUNTS;
const NO_TWO_FACTOR = { email: "admin-without-2fa@example.com", password: "guard-test-pass-1" };

interface AdminRoute {
  path: string;
  file: string;
  guarded: boolean;
  /** A page (the module renders a component), not a resource route. */
  page: boolean;
}

/** A file URL (`/admin/audit.csv`): refused with 401/403 rather than sent to a page. */
const isFile = (route: AdminRoute) => /\.\w+$/.test(route.path);

/** The route table flattened: each route's full path, file and whether the admin layout is above it. */
function walk(entries: RouteConfigEntry[], parentPath = "", guarded = false): AdminRoute[] {
  return entries.flatMap((entry) => {
    const full = [parentPath, entry.path ?? ""].filter(Boolean).join("/");
    const underGuard = guarded || entry.file === GUARD_LAYOUT;
    const module = fs.readFileSync(path.join(REPO_ROOT, "app", entry.file), "utf8");
    const self = { path: full, file: entry.file, guarded: underGuard, page: /export default function/.test(module) };
    return [...(entry.path !== undefined ? [self] : []), ...walk(entry.children ?? [], full, underGuard)];
  });
}

const adminRoutes = walk(routes).filter((route) => route.path === "admin" || route.path.startsWith("admin/"));

describe("the admin route table", () => {
  it("puts every /admin route under the admin layout, whose middleware is the guard", () => {
    expect(adminRoutes.length).toBeGreaterThanOrEqual(4);
    expect(adminRoutes.filter((route) => !route.guarded).map((route) => route.path)).toEqual([]);
    expect(middleware).toContain(adminGuard);
  });
});

describe.each(testEngines())("every admin route on a live server on %s", (engine) => {
  let server: ServerProcess;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  let demoUserId = "";
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = tempDir("fk-guard-");
    const scratch = await scratchDatabaseFor(engine, "guard", await siteTemplate(engine));
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
    const env = { AUTH_RATE_LIMIT: "1000", ...scratch.env };
    const port = await freePort();
    // The first start seeds; then, with the server stopped (the embedded database is
    // one process's), an admin who has not turned on two-factor is added.
    await (await startServer({ port, dataDir, env })).stop();
    demoUserId = await addAdminWithoutTwoFactor(databaseUrl ? { url: databaseUrl } : { dataDir });
    server = await startServer({ port, dataDir, env });
    cookies.user = await signIn(port, USER.email, USER.password);
    cookies.adminWithoutTwoFactor = await signIn(port, NO_TWO_FACTOR.email, NO_TWO_FACTOR.password);
    cookies.admin = await signIn(port, ADMIN.email, ADMIN.password);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await dropDatabase();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Every parameter well-shaped (a wrong shape is answered 404 before the guard, server/route-params.ts):
  // the demo user, and for any other id one that exists nowhere.
  const probes: Record<string, string> = {
    userId: "",
    licenseId: randomUUID(),
    teamId: randomUUID(),
    paymentId: "txn_guard_probe",
  };
  const url = (route: AdminRoute) =>
    `/${route.path.replace(/:(\w+)/g, (_, name: string) => (name === "userId" ? demoUserId : (probes[name] ?? name)))}`;
  const get = (pathname: string, cookie: string, accept: string) =>
    rawRequest({ port: server.port, method: "GET", path: pathname, headers: { Accept: accept, Cookie: cookie } });
  const post = (pathname: string, cookie: string) =>
    formPost(server.port, pathname, { intent: "guard-probe" }, { cookie });

  const refused = [
    { who: "a visitor", cookie: () => "", status: 401, sentTo: "/" },
    { who: "a signed-in user", cookie: () => cookies.user!, status: 403, sentTo: "/" },
    {
      who: "an admin without two-factor",
      cookie: () => cookies.adminWithoutTwoFactor!,
      status: 403,
      sentTo: TWO_FACTOR_ENROL_PATH,
    },
  ];

  for (const route of adminRoutes) {
    describe(`/${route.path}`, () => {
      for (const { who, cookie, status, sentTo } of refused) {
        it(`refuses ${who}: a read is redirected (a file: ${status}), a post gets ${status}, nothing is shown`, async () => {
          for (const accept of ["text/html", "*/*"]) {
            const read = await get(url(route), cookie(), accept);
            if (isFile(route)) {
              expect(read.status).toBe(status);
            } else {
              expect(read.status).toBe(302);
              expect(read.headers.location).toBe(sentTo);
            }
            expect(read.body).not.toContain(ADMIN.email);
          }
          const sent = await post(url(route), cookie());
          expect(sent.status).toBe(status);
          expect(sent.body).not.toContain(ADMIN.email);
          if (route.page) {
            const data = await get(`${url(route)}.data`, cookie(), "*/*");
            // React Router's data request answers a redirect as a 202 whose body names the target.
            expect(data.status).toBe(202);
            expect(data.body).toContain(sentTo);
            expect(data.body).not.toContain(ADMIN.email);
          }
        });
      }

      it("lets an admin with two-factor in: the route's own answer to a page, a file and a post", async () => {
        const page = await get(url(route), cookies.admin!, "text/html");
        expect(page.status).not.toBe(302);
        expect([401, 403]).not.toContain(page.status);
        expect(page.status).toBeLessThan(500);
        // A page of the demo user answers 200; one of a record that exists nowhere (a probe id such as
        // :teamId) answers the route's own 404, past the guard.
        if (route.page) expect(page.status).toBe(/:(?!userId\b)\w+/.test(route.path) ? 404 : 200);
        const file = await get(url(route), cookies.admin!, "*/*");
        expect([302, 401, 403]).not.toContain(file.status);
        expect(file.status).toBeLessThan(500);
        // An unknown intent: 400 from the route's action, or 405 where it has none.
        const sent = await post(url(route), cookies.admin!);
        expect([400, 405]).toContain(sent.status);
      });
    });
  }
});

/** Adds the admin without two-factor to the stopped server's database; returns the demo user's id. */
async function addAdminWithoutTwoFactor(where: { url: string } | { dataDir: string }): Promise<string> {
  const database = await openDatabase(where);
  try {
    const { db } = database;
    const [user] = await db
      .insert(users)
      .values({ email: NO_TWO_FACTOR.email, name: "Una Enrolled", emailVerified: true })
      .returning({ id: users.id });
    await db.insert(accounts).values({
      accountId: user!.id,
      providerId: "credential",
      userId: user!.id,
      password: await hashPassword(NO_TWO_FACTOR.password),
    });
    await db.insert(profiles).values({ id: user!.id, full_name: "Una Enrolled" });
    await db.insert(user_roles).values({ user_id: user!.id, role: "admin" });
    const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.email, USER.email));
    return demo!.id;
  } finally {
    await database.close();
  }
}
