import { eq, inArray, or, sql } from "drizzle-orm";
import * as userRoute from "~/routes/admin/user";
import { audit_log, licenses, user_email_history, users } from "~/server/db/schema";
import { SUPPORT_DEMO_CUSTOMERS } from "~/server/seed-support.server";
import { startAdminTestApp } from "./admin-app";
import { throughAdminGuard } from "./admin-route";
import { call, formRequest, getRequest } from "./route-call";
import type { EngineName } from "./test-app";

/**
 * What a test of the support back office (decision 0038) starts from: the admin test app (demo data and
 * the seeded ticket customers), and calls of the user page's loader and action as the admin.
 */
export async function startSupportApp(engine: EngineName) {
  const { app, adminCookie } = await startAdminTestApp(engine);
  const db = app.database.db;
  const post = (path: string, fields: Record<string, string>, cookie = adminCookie) => {
    const request = formRequest(path, {}, cookie);
    return new Request(request.url, { method: "POST", headers: request.headers, body: new URLSearchParams(fields) });
  };
  return {
    app,
    adminCookie,
    post,
    /** The user page's action as the admin. */
    act: (userId: string, fields: Record<string, string>) =>
      call(() => throughAdminGuard(userRoute.action, post(`/admin/users/${userId}`, fields), { userId })),
    /** The user page's loader as the admin. */
    view: (userId: string, query = "") =>
      call(() =>
        throughAdminGuard(userRoute.loader, getRequest(`/admin/users/${userId}${query}`, adminCookie), { userId }),
      ),
    customer: async (key: keyof typeof SUPPORT_DEMO_CUSTOMERS) => {
      // By the seeded address, or the one it had before a test changed it.
      const seeded = SUPPORT_DEMO_CUSTOMERS[key].email;
      const [user] = await db
        .select()
        .from(users)
        .where(
          or(
            eq(users.email, seeded),
            inArray(
              users.id,
              db
                .select({ id: user_email_history.user_id })
                .from(user_email_history)
                .where(eq(user_email_history.email, seeded)),
            ),
          ),
        );
      const owned = await db.select().from(licenses).where(eq(licenses.user_id, user!.id));
      return { user: user!, license: owned[0] };
    },
    audits: (action: string) => db.select().from(audit_log).where(eq(audit_log.action, action)),
    auditCount: async () =>
      ((await db.select({ n: sql<number>`count(*)::int` }).from(audit_log)) as { n: number }[])[0]!.n,
  };
}

export type SupportApp = Awaited<ReturnType<typeof startSupportApp>>;
