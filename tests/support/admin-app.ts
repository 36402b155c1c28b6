import { eq, sql } from "drizzle-orm";
import * as csvRoute from "~/routes/admin/audit-csv";
import * as releasesRoute from "~/routes/admin/releases";
import * as userRoute from "~/routes/admin/user";
import { audit_log, licenses } from "~/server/db/schema";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { adminPageLoader } from "./admin-pages";
import { adminFile, throughAdminGuard } from "./admin-route";
import { call, formRequest, getRequest, signInCookie } from "./route-call";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

/**
 * What a test of admin pages starts from: a test app with the demo data, its admin signed in (two
 * factor on: the code step done with the admin's stored secret) and its customer signed in. The
 * sign-in limit is raised (the limits are the accounts tests'); `envOverrides` adds to it.
 */
export async function startAdminTestApp(
  engine: EngineName,
  envOverrides: Record<string, string> = {},
): Promise<{ app: TestApp; adminCookie: string; userCookie: string }> {
  const [admin, user] = DEMO_ACCOUNTS;
  const app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", ...envOverrides });
  await seedDemoData(app.database.db);
  const adminCookie = await signInCookie(admin.email, admin.password);
  const userCookie = await signInCookie(user.email, user.password);
  return { app, adminCookie, userCookie };
}

/**
 * The administration tests' app for a `describe` of one engine (`state` holds it and the two cookies
 * once the test file's `startApp` ran; `stopApp` closes it), and the calls they make: the admin list pages'
 * loaders, the releases page's action, a user's page, the audit CSV.
 */
export function adminApp(engine: EngineName) {
  const state = {} as { app: TestApp; adminCookie: string; userCookie: string };
  async function startApp() {
    Object.assign(state, await startAdminTestApp(engine));
  }
  const stopApp = async () => state.app?.close();

  const db = () => state.app.database.db;
  /** An admin list page by its path after /admin ("" the overview, "/users?q=…", "/releases", "/audit?…"). */
  const load = (path: string, cookie = state.adminCookie) =>
    call(() => throughAdminGuard(adminPageLoader(`/admin${path}`), getRequest(`/admin${path}`, cookie)));
  const postTo = (path: string, fields: Record<string, string | string[]>, cookie: string) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const value of [v].flat()) body.append(k, value);
    const request = formRequest(path, {}, cookie);
    return new Request(request.url, { method: "POST", headers: request.headers, body });
  };
  const post = (fields: Record<string, string | string[]>, cookie = state.adminCookie) =>
    call(() => throughAdminGuard(releasesRoute.action, postTo("/admin/releases", fields, cookie)));
  /** A support action on a user's page (licenses: revoke, add tester, reset offline data). */
  const postUser = (userId: string, fields: Record<string, string | string[]>, cookie = state.adminCookie) =>
    call(() => throughAdminGuard(userRoute.action, postTo(`/admin/users/${userId}`, fields, cookie), { userId }));
  const loadUser = (userId: string, cookie = state.adminCookie) =>
    call(() => throughAdminGuard(userRoute.loader, getRequest(`/admin/users/${userId}`, cookie), { userId }));
  const csv = (query: string, cookie = state.adminCookie) =>
    adminFile(csvRoute.loader, getRequest(`/admin/audit.csv${query}`, cookie));
  const auditCount = async () =>
    (
      (await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(audit_log)) as { n: number }[]
    )[0]!.n;
  const userLicenses = async (userId: string) => db().select().from(licenses).where(eq(licenses.user_id, userId));
  return { startApp, stopApp, state, db, load, post, postUser, loadUser, csv, auditCount, userLicenses };
}
