import { redirect } from "react-router";
import { AdminMonthsOverview } from "~/components/admin/admin-months-overview";
import { AdminMachinesOverview } from "~/components/admin/admin-machines-overview";
import { AdminPage } from "~/components/admin/admin-nav";
import { AdminOverview } from "~/components/admin/admin-overview";
import { ADMIN_ERRORS } from "~/domain/admin";
import { adminTabLocation } from "~/domain/admin-nav";
import { currentAdmin } from "~/http/admin-guard.server";
import { adminReads } from "~/http/admin-reads.server";
import { pageTitle } from "~/lib/meta";
import { getMonthsOverview } from "~/server/admin/months-overview.server";
import { getOverview } from "~/server/admin/overview.server";
import { machinesOverview } from "~/server/machines/machines-overview.server";
import type { Route } from "./+types/index";

/**
 * The admin overview: how the business is doing. An address of the old tabbed page
 * (`/admin?tab=users&q=…`) is sent on, with its other parameters, to that tab's own page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  currentAdmin(context);
  const moved = adminTabLocation(new URL(request.url).searchParams);
  if (moved) throw redirect(moved, 302);
  const reads = adminReads(context);
  const [overview, months, machines] = await Promise.all([
    reads.attempt(ADMIN_ERRORS.loadOverview, () => getOverview()),
    reads.attempt(ADMIN_ERRORS.loadOverview, () => getMonthsOverview()),
    reads.attempt(ADMIN_ERRORS.loadOverview, () => machinesOverview()),
  ]);
  reads.done();
  return { overview, months, machines };
}

export default function AdminOverviewRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Administration" intro="How the business is doing.">
      <AdminOverview overview={loaderData.overview.value} error={loaderData.overview.error} />
      <AdminMonthsOverview overview={loaderData.months.value} />
      <AdminMachinesOverview overview={loaderData.machines.value} />
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Administration"),
  { name: "description", content: "How the business is doing." },
  { name: "robots", content: "noindex" },
];
