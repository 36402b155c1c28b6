import { data, Link } from "react-router";
import { AdminTeamPage } from "~/components/admin/admin-team-page";
import { BackToAdmin } from "~/components/admin/back-to-admin";
import type { AdminTeamView } from "~/domain/admin-team";
import { pageTitle } from "~/lib/meta";
import { currentAdmin } from "~/http/admin-guard.server";
import { getLogger } from "~/server/logger.server";
import { adminTeamView } from "~/server/teams/team-views.server";
import type { Route } from "./+types/team";

/** Reads the team for the admin and puts it as the page shows it (dates as ISO strings). */
async function readTeam(teamId: string): Promise<AdminTeamView | null> {
  const found = await adminTeamView(teamId);
  if (!found) return null;
  const { team } = found;
  return {
    id: team.id,
    name: team.name,
    planType: team.plan_type,
    ownerId: team.owner_id,
    ownerEmail: found.ownerEmail,
    createdAt: team.created_at.toISOString(),
    domain: team.domain,
    domainClaim: team.domain_claim,
    seats: found.seats,
    subscription: found.subscription,
    subscriptionId: team.subscription_id,
    members: found.members,
    invitations: found.invitations,
    payments: found.payments.map((payment) => ({
      id: payment.id,
      kind: payment.kind,
      amountCents: payment.amount_cents,
      currency: payment.currency,
      billedAt: payment.billed_at.toISOString(),
      refundedCents: payment.refunded_cents,
    })),
  };
}

/** One team in the admin area: admins only (the admin layout's guard). */
export async function loader({ params, context }: Route.LoaderArgs) {
  currentAdmin(context);
  try {
    const team = await readTeam(params.teamId);
    if (!team) return data({ team: null, error: "Team not found." }, { status: 404 });
    return { team, error: null };
  } catch (error) {
    getLogger().error({ err: error }, "admin team page failed");
    return data({ team: null, error: "The team could not be loaded." }, { status: 500 });
  }
}

export default function AdminTeam({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-12 sm:px-6">
      <BackToAdmin />
      {loaderData.team ? (
        <AdminTeamPage team={loaderData.team} />
      ) : (
        <div className="flex flex-col gap-3">
          <h1 className="text-2xl font-semibold">{loaderData.error}</h1>
          <Link to="/admin/users" className="underline underline-offset-2">
            Back to the user list
          </Link>
        </div>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, data: loaded }) => [
  pageTitle(matches, loaded?.team ? `Team ${loaded.team.name}` : "Team"),
];
