import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import * as adminRoute from "~/routes/admin/index";
import * as userRoute from "~/routes/admin/user";
import * as csvRoute from "~/routes/admin/audit-csv";
import { audit_log, licenses } from "~/server/db/schema";
import { startAdminTestApp } from "./admin-app";
import { adminFile, throughAdminGuard } from "./admin-route";
import { call, formRequest, getRequest } from "./route-call";
import type { EngineName, TestApp } from "./test-app";

/**
 * The administration suites' set-up, for a `describe` of one engine: the admin test app started
 * before its tests and closed after them (`state` holds it and the two cookies once started), and the
 * calls the suites make: the admin page's loader and action, a user's page, the audit CSV.
 */
export function adminSuite(engine: EngineName) {
  const state = {} as { app: TestApp; adminCookie: string; userCookie: string };
  beforeAll(async () => {
    Object.assign(state, await startAdminTestApp(engine));
  });
  afterAll(async () => state.app?.close());

  const db = () => state.app.database.db;
  const load = (query: string, cookie = state.adminCookie) =>
    call(() => throughAdminGuard(adminRoute.loader, getRequest(`/admin${query}`, cookie)));
  const postTo = (path: string, fields: Record<string, string | string[]>, cookie: string) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const value of [v].flat()) body.append(k, value);
    const request = formRequest(path, {}, cookie);
    return new Request(request.url, { method: "POST", headers: request.headers, body });
  };
  const post = (fields: Record<string, string | string[]>, cookie = state.adminCookie) =>
    call(() => throughAdminGuard(adminRoute.action, postTo("/admin", fields, cookie)));
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
  return { state, db, load, post, postUser, loadUser, csv, auditCount, userLicenses };
}
