import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatDate } from "~/domain/format-date";
import { seatsLine, type TeamView } from "~/domain/team-page";
import { useTeamAction } from "./use-team-action";

/** The team's name (the owner renames it), its seats, its subscription, and the domain claim. */
export function TeamSettings({ team }: { team: TeamView }) {
  const owner = team.viewerRole === "owner";
  return (
    <header className="flex flex-col gap-4">
      <div>
        <p className="text-sm text-muted-foreground">{owner ? "Your team" : "A team you manage"}</p>
        <h1 className="text-3xl font-semibold tracking-tight [overflow-wrap:anywhere]">{team.name}</h1>
        <p className="mt-2 flex flex-wrap items-center gap-2 text-muted-foreground">
          <span data-testid="team-seats-line">{seatsLine(team.seats)}</span>
          {team.subscription ? (
            <Badge variant={team.subscription.active ? "success" : "secondary"}>{team.subscription.label}</Badge>
          ) : null}
          {team.subscription ? <span className="text-sm">until {formatDate(team.subscription.endDate)}</span> : null}
        </p>
        {team.seats.nextRenewal !== null ? (
          <p className="mt-1 text-sm text-muted-foreground">
            Renews with {team.seats.nextRenewal} seats on{" "}
            {team.subscription ? formatDate(team.subscription.endDate) : "the next renewal"}.
          </p>
        ) : null}
      </div>
      {owner ? (
        <div className="grid gap-4 md:grid-cols-2">
          <RenameForm team={team} />
          <DomainClaimForm team={team} />
        </div>
      ) : null}
    </header>
  );
}

function RenameForm({ team }: { team: TeamView }) {
  const { fetcher, busy } = useTeamAction();
  return (
    <fetcher.Form method="post" action="/team" className="grid gap-2 rounded-lg border p-4">
      <input type="hidden" name="intent" value="rename" />
      <input type="hidden" name="teamId" value={team.id} />
      <Label htmlFor="team-name">Team name</Label>
      <div className="flex gap-2">
        <Input id="team-name" name="name" defaultValue={team.name} maxLength={100} required autoComplete="off" />
        <Button type="submit" variant="secondary" disabled={busy}>
          Save
        </Button>
      </div>
    </fetcher.Form>
  );
}

function DomainClaimForm({ team }: { team: TeamView }) {
  const { fetcher, busy } = useTeamAction();
  return (
    <fetcher.Form method="post" action="/team" className="grid gap-2 rounded-lg border p-4">
      <input type="hidden" name="intent" value="domain-claim" />
      <input type="hidden" name="teamId" value={team.id} />
      {team.domainClaim ? null : <input type="hidden" name="enabled" value="on" />}
      <p className="text-sm font-medium">Seats by e-mail domain</p>
      <p className="text-sm text-muted-foreground">
        {team.domainClaim && team.domain
          ? `On: anyone with a confirmed @${team.domain} address may claim a free seat without an invitation.`
          : "Off: seats are handed out by invitation only. Turn on to let anyone with a confirmed address at your own address's domain claim a free seat."}
      </p>
      <Button type="submit" variant="outline" size="sm" className="self-start" disabled={busy}>
        {team.domainClaim ? "Turn off" : "Turn on"}
      </Button>
    </fetcher.Form>
  );
}
