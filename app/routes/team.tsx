import { data, Link } from "react-router";
import { ClaimSeatCards } from "~/components/team/claim-seat-card";
import { TeamInvite } from "~/components/team/team-invite";
import { TeamInvitations } from "~/components/team/team-invitations";
import { TeamMembers } from "~/components/team/team-members";
import { TeamPlan } from "~/components/team/team-plan";
import { TeamSeats } from "~/components/team/team-seats";
import { TeamSettings } from "~/components/team/team-settings";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import type { ActionResult } from "~/domain/action-result";
import { CLAIM_TEXTS, type ClaimableTeamView } from "~/domain/team-claim-texts";
import { teamPlanDoneToast } from "~/domain/team-plan-change";
import { TEAM_TOASTS, type SeatQuoteView, type TeamView } from "~/domain/team-page";
import { pageTitle } from "~/lib/meta";
import { ActionError } from "~/server/action-error.server";
import { failure } from "~/http/action-reply.server";
import { requireUser } from "~/http/session-guards.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import { claimableTeams, claimDomainSeat, takeSeat } from "~/server/teams/team-accept.server";
import { inviteMembers, resendInvitation, withdrawInvitation } from "~/server/teams/team-invitations.server";
import { removeMember, renameTeam, setDomainClaim, setMemberRole } from "~/server/teams/team-members.server";
import { changeSeats, quoteSeatChange } from "~/server/teams/team-seats.server";
import { changeTeamPlan, previewTeamPlanChange, type TeamPlanQuote } from "~/server/teams/team-plan.server";
import { teamPage, teamsOfUser } from "~/server/teams/team-views.server";
import type { Route } from "./+types/team";

/**
 * The team page (decision 0047) of the teams the signed-in user owns or manages (`?team=` picks one):
 * seats, members, invitations, and what the viewer's role may change. Members without a role see
 * their seat on /licenses; everyone else is told they have no team.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const managed = (await teamsOfUser(user.id)).filter((team) => team.role !== "member");
  const wanted = new URL(request.url).searchParams.get("team");
  const current = managed.find((team) => team.id === wanted) ?? managed[0];
  const team: TeamView | null = current ? await teamPage(current.id, user.id) : null;
  // Someone without a team of their own may be offered a seat by their address's domain.
  const claimable: ClaimableTeamView[] = team ? [] : await claimableTeams(user);
  return {
    teams: managed.map(({ id, name }) => ({ id, name })),
    team,
    claimable,
    viewerId: user.id,
    now: new Date().toISOString(),
  };
}

type TeamAnswer = ActionResult & { quote?: SeatQuoteView; planChange?: TeamPlanQuote };

const reply = (result: TeamAnswer) => data(result, { status: 200 });
const fail = (status: number, description: string) => failure(status, { description, formError: false });
const seatsOf = (form: FormData) => Number(String(form.get("seats") ?? "").trim() || NaN);

/** Each intent calls one teams service, which checks the actor's role in the team on the server. */
async function runIntent(intent: string, form: FormData, actorId: string) {
  const teamId = String(form.get("teamId") ?? "");
  const userId = String(form.get("userId") ?? "");
  const invitationId = String(form.get("invitationId") ?? "");
  switch (intent) {
    case "rename": {
      const name = await renameTeam({ teamId, actorId, name: String(form.get("name") ?? "") });
      return reply({ ok: true, toast: { ...TEAM_TOASTS.renamed(name), variant: "success" } });
    }
    case "invite": {
      const { invited } = await inviteMembers({ teamId, actorId, emails: String(form.get("emails") ?? "") });
      return reply({ ok: true, toast: { ...TEAM_TOASTS.invited(invited.length), variant: "success" } });
    }
    case "resend": {
      const { email } = await resendInvitation({ teamId, actorId, invitationId });
      return reply({ ok: true, toast: { ...TEAM_TOASTS.resent(email), variant: "success" } });
    }
    case "withdraw":
      await withdrawInvitation({ teamId, actorId, invitationId });
      return reply({ ok: true, toast: { ...TEAM_TOASTS.withdrawn, variant: "success" } });
    case "remove":
      await removeMember({ teamId, actorId, userId });
      return reply({
        ok: true,
        toast: { ...TEAM_TOASTS.removed(String(form.get("name") || "The member")), variant: "success" },
      });
    case "claim-seat": {
      const { shortId, teamName } = await claimDomainSeat({ teamId, userId: actorId });
      return reply({ ok: true, toast: { ...CLAIM_TEXTS.taken(teamName, shortId), variant: "success" } });
    }
    case "take-seat": {
      const { shortId } = await takeSeat({ teamId, actorId });
      return reply({ ok: true, toast: { ...TEAM_TOASTS.seatTaken(shortId), variant: "success" } });
    }
    case "quote-seats":
      return reply({ ok: true, toast: null, quote: await quoteSeatChange({ teamId, actorId, seats: seatsOf(form) }) });
    case "change-seats": {
      const quote = await changeSeats({ teamId, actorId, seats: seatsOf(form) });
      return reply({
        ok: true,
        toast: { ...TEAM_TOASTS.seatsChanged(quote.seats, quote.effect === "now"), variant: "success" },
      });
    }
    // The team's plan (decision 0074): the provider's preview, then the change the owner confirmed.
    case "preview-plan": {
      const quote = await previewTeamPlanChange({ teamId, actorId, plan: form.get("plan") });
      return reply({ ok: true, toast: null, planChange: quote });
    }
    case "change-plan": {
      const preview = await changeTeamPlan({ teamId, actorId, plan: form.get("plan"), stamp: form.get("stamp") });
      return reply({ ok: true, toast: { ...teamPlanDoneToast(preview), variant: "success" } });
    }
    case "domain-claim": {
      const { domain } = await setDomainClaim({ teamId, actorId, enabled: form.get("enabled") === "on" });
      return reply({ ok: true, toast: { ...TEAM_TOASTS.domainClaim(domain), variant: "success" } });
    }
    case "set-role": {
      const role = String(form.get("role") ?? "");
      await setMemberRole({ teamId, actorId, userId, role: role as "manager" | "member" });
      return reply({ ok: true, toast: { ...TEAM_TOASTS.roleChanged(role), variant: "success" } });
    }
    default:
      return fail(400, "Unknown action.");
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  try {
    return await runIntent(intent, form, user.id);
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error, intent }, "team action failed");
    return fail(500, "The team could not be changed. Please try again.");
  }
}

export default function TeamRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { team, teams, viewerId, claimable } = loaderData;
  useActionToast(actionData);
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6">
      {team ? (
        <>
          <TeamSwitcher teams={teams} current={team.id} />
          <TeamSettings team={team} />
          <div className="mt-8 grid gap-8">
            <TeamMembers team={team} viewerId={viewerId} />
            <TeamInvite team={team} />
            <TeamInvitations team={team} />
            {team.viewerRole === "owner" ? <TeamSeats team={team} /> : null}
            {team.viewerRole === "owner" ? <TeamPlan team={team} /> : null}
          </div>
        </>
      ) : (
        <NoTeam claimable={claimable} />
      )}
    </div>
  );
}

/** Links to the other teams the viewer runs (most have one). */
function TeamSwitcher({ teams, current }: { teams: { id: string; name: string }[]; current: string }) {
  if (teams.length < 2) return null;
  return (
    <nav aria-label="Your teams" className="mb-6 flex flex-wrap gap-2 text-sm">
      {teams.map((team) => (
        <Link
          key={team.id}
          to={`/team?team=${team.id}`}
          aria-current={team.id === current ? "page" : undefined}
          className="rounded-md border px-3 py-1 aria-[current=page]:border-primary aria-[current=page]:bg-primary/10"
        >
          {team.name}
        </Link>
      ))}
    </nav>
  );
}

function NoTeam({ claimable }: { claimable: ClaimableTeamView[] }) {
  return (
    <div className="mx-auto max-w-xl text-center">
      <h1 className="text-3xl font-semibold tracking-tight">Your team</h1>
      <p className="mt-3 text-muted-foreground">
        You do not own or manage a team. Buy seats for your team on the pricing page and hand them out by e-mail; a seat
        someone gave you is on your licenses page.
      </p>
      <div className="mt-6 flex justify-center gap-3">
        <Button asChild>
          <Link to="/pricing#team">Buy seats for a team</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/licenses">My licenses</Link>
        </Button>
      </div>
      <ClaimSeatCards teams={claimable} className="mt-10" />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Team"),
  { name: "description", content: "Your team's seats, members and invitations." },
];
