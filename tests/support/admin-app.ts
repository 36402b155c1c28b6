import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { signInCookie } from "./route-call";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

/**
 * What a test of admin pages starts from: a test app with the demo data, its admin signed in (two
 * factor on: the code step done with the admin's stored secret) and its customer signed in. The
 * sign-in limit is raised (the limits are the accounts suite's); `envOverrides` adds to it.
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
