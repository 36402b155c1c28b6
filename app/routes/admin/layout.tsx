import { Outlet } from "react-router";
import { adminGuard } from "~/server/auth/admin-guard.server";
import type { Route } from "./+types/layout";

/**
 * The admin area's layout: its guard runs before every loader, action and file of the routes under
 * it (app/routes.ts), so none of them can be reached by anyone but an admin with two-factor on.
 * Routes read the admin it let through with currentAdmin(context).
 */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export default function AdminLayout() {
  return <Outlet />;
}
