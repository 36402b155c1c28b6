import { Outlet } from "react-router";
import { AdminJobs } from "~/components/admin/admin-jobs";
import { AdminNav } from "~/components/admin/admin-nav";
import { adminGuard, currentAdmin } from "~/http/admin-guard.server";
import { jobsStatus } from "~/server/jobs/jobs.server";
import type { Route } from "./+types/layout";

/**
 * The admin area's layout: its guard runs before every loader, action and file of the routes under
 * it (app/routes.ts), so none of them can be reached by anyone but an admin with two-factor on.
 * Routes read the admin it let through with currentAdmin(context). Every page under it shows the
 * admin navigation (overview, users, releases, audit log, tokens, webhooks, jobs) and the job queue's state.
 */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export async function loader({ context }: Route.LoaderArgs) {
  currentAdmin(context);
  return { jobs: await jobsStatus() };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <div className="mx-auto w-full max-w-5xl px-4 pt-8 sm:px-6">
        <AdminNav />
        <AdminJobs jobs={loaderData.jobs} />
      </div>
      <Outlet />
    </>
  );
}
