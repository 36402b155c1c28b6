import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { CardCell, CardRow, CardTable } from "~/components/ui/card-table";
import { formatDate } from "~/domain/format-date";
import type { TeamMemberView, TeamView } from "~/domain/team-page";
import { DESTRUCTIVE_OUTLINE } from "../licenses/license-actions";
import { NeedsScript } from "../needs-script";
import { useTeamAction, useTeamActionToast } from "./use-team-action";

/** The remove fetcher's key: the list shows its answer, since the row that asked is gone. */
const REMOVE_KEY = "team-remove-member";

/** Who may remove whom, as the server decides it: never the owner; a manager only plain members. */
function mayRemove(viewer: TeamView["viewerRole"], member: TeamMemberView, self: boolean): boolean {
  if (member.role === "owner" || self) return false;
  if (viewer === "owner") return true;
  return viewer === "manager" && member.role === "member";
}

/** The members: name, address, role, seat license, since; remove (confirmed), roles, the owner's own seat. */
export function TeamMembers({ team, viewerId }: { team: TeamView; viewerId: string }) {
  const viewer = team.members.find((member) => member.userId === viewerId);
  useTeamActionToast(REMOVE_KEY);
  return (
    <section aria-labelledby="members" className="rounded-lg border">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b p-4">
        <h2 id="members" className="text-xl font-semibold">
          Members
        </h2>
        {viewer && !viewer.seatLicenseId && team.seats.invitable > 0 ? <TakeSeat teamId={team.id} /> : null}
      </div>
      <CardTable
        caption="Team members"
        columns={[
          { label: "Name" },
          { label: "E-mail" },
          { label: "Seat license" },
          { label: "Since" },
          { label: <span className="sr-only">Actions</span> },
        ]}
      >
        {team.members.map((member) => (
          <CardRow key={member.userId} data-testid="team-member">
            <CardCell label="Name" rowHeader>
              {member.name || "—"}{" "}
              {member.role !== "member" ? (
                <Badge variant="outline" className="ml-1">
                  {member.role}
                </Badge>
              ) : null}
            </CardCell>
            <CardCell label="E-mail">{member.email}</CardCell>
            <CardCell label="Seat license">
              {member.seatShortId ? <span className="font-mono">{member.seatShortId}</span> : "No seat"}
            </CardCell>
            <CardCell label="Since">{formatDate(member.since)}</CardCell>
            <CardCell label="Actions" className="md:text-right">
              <span className="inline-flex flex-wrap gap-2 md:justify-end">
                {team.viewerRole === "owner" && member.role !== "owner" ? (
                  <RoleButton team={team} member={member} />
                ) : null}
                {mayRemove(team.viewerRole, member, member.userId === viewerId) ? (
                  <RemoveMember team={team} member={member} />
                ) : null}
              </span>
            </CardCell>
          </CardRow>
        ))}
      </CardTable>
    </section>
  );
}

function TakeSeat({ teamId }: { teamId: string }) {
  const { fetcher, busy } = useTeamAction();
  return (
    <fetcher.Form method="post" action="/team">
      <input type="hidden" name="intent" value="take-seat" />
      <input type="hidden" name="teamId" value={teamId} />
      <Button type="submit" size="sm" variant="secondary" disabled={busy}>
        Take a seat myself
      </Button>
    </fetcher.Form>
  );
}

function RoleButton({ team, member }: { team: TeamView; member: TeamMemberView }) {
  const { fetcher, busy } = useTeamAction();
  const next = member.role === "manager" ? "member" : "manager";
  return (
    <fetcher.Form method="post" action="/team">
      <input type="hidden" name="intent" value="set-role" />
      <input type="hidden" name="teamId" value={team.id} />
      <input type="hidden" name="userId" value={member.userId} />
      <input type="hidden" name="role" value={next} />
      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`Make ${member.email} a ${next}`}>
        {next === "manager" ? "Make manager" : "Make member"}
      </Button>
    </fetcher.Form>
  );
}

function RemoveMember({ team, member }: { team: TeamView; member: TeamMemberView }) {
  const { submit, busy, hydrated } = useTeamAction(REMOVE_KEY, false);
  const who = member.name || member.email;
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          type="button"
          size="sm"
          variant="outline"
          className={DESTRUCTIVE_OUTLINE}
          disabled={busy || !hydrated}
          aria-label={`Remove ${member.email}`}
        >
          Remove
        </Button>
      </AlertDialogTrigger>
      <NeedsScript />
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove {who} from the team?</AlertDialogTitle>
          <AlertDialogDescription>
            {member.seatShortId
              ? `Their seat license ${member.seatShortId} is revoked ("removed from team") and stops working in the tool; the seat is free for someone else.`
              : "They no longer belong to the team."}{" "}
            They get an e-mail saying so.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: "destructive" })}
            onClick={() => submit({ intent: "remove", teamId: team.id, userId: member.userId, name: who })}
          >
            Remove member
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
