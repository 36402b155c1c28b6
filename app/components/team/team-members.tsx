import { useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { CardCell, CardRow, CardTable } from "~/components/ui/card-table";
import { formatDate } from "~/domain/format-date";
import type { TeamMemberView, TeamView } from "~/domain/team-page";
import { DESTRUCTIVE_OUTLINE } from "../licenses/license-actions";
import { NeedsScript } from "../needs-script";
import { useTeamAction } from "./use-team-action";

/** Who may remove whom, as the server decides it: never the owner; a manager only plain members. */
function mayRemove(viewer: TeamView["viewerRole"], member: TeamMemberView, self: boolean): boolean {
  if (member.role === "owner" || self) return false;
  if (viewer === "owner") return true;
  return viewer === "manager" && member.role === "member";
}

/** The member a Remove button asked about, and the button, which gets the focus back. */
interface Removing {
  member: TeamMemberView;
  button: HTMLButtonElement;
}

/**
 * The members: name, address, role, seat license, since; remove (confirmed), roles, the owner's own seat.
 * The rows share one confirmation dialog and one fetcher per kind of action (a team of 50 drew 50
 * dialogs and 100 fetchers, and hydrated in seconds on a slow machine); the list, which outlives a
 * removed row, shows the answers.
 */
export function TeamMembers({ team, viewerId }: { team: TeamView; viewerId: string }) {
  const viewer = team.members.find((member) => member.userId === viewerId);
  // Every row's removal and every row's role change go through the list's two fetchers (one runs at a time).
  const remove = useTeamAction();
  const roles = useTeamAction();
  const [removing, setRemoving] = useState<Removing | null>(null);
  const [confirming, setConfirming] = useState(false);
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
                  <RoleForm Form={roles.fetcher.Form} busy={roles.busy} teamId={team.id} member={member} />
                ) : null}
                {mayRemove(team.viewerRole, member, member.userId === viewerId) ? (
                  <RemoveButton
                    member={member}
                    disabled={remove.busy || !remove.hydrated}
                    onClick={(button) => {
                      setRemoving({ member, button });
                      setConfirming(true);
                    }}
                  />
                ) : null}
              </span>
            </CardCell>
          </CardRow>
        ))}
      </CardTable>
      {removing ? (
        <RemoveDialog
          removing={removing}
          open={confirming}
          onOpenChange={setConfirming}
          onRemove={(who) =>
            remove.submit({ intent: "remove", teamId: team.id, userId: removing.member.userId, name: who })
          }
        />
      ) : null}
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

/** A row's Remove button: opens the list's confirmation (JavaScript only, and it says so until then). */
function RemoveButton({
  member,
  disabled,
  onClick,
}: {
  member: TeamMemberView;
  disabled: boolean;
  onClick: (button: HTMLButtonElement) => void;
}) {
  return (
    <>
      <Button
        type="button"
        size="sm"
        variant="outline"
        className={DESTRUCTIVE_OUTLINE}
        disabled={disabled}
        aria-haspopup="dialog"
        aria-label={`Remove ${member.email}`}
        onClick={(event) => onClick(event.currentTarget)}
      >
        Remove
      </Button>
      <NeedsScript />
    </>
  );
}

/** A row's role change: a form of the list's role fetcher (a plain form post without JavaScript). */
function RoleForm({
  Form,
  busy,
  teamId,
  member,
}: {
  Form: ReturnType<typeof useTeamAction>["fetcher"]["Form"];
  busy: boolean;
  teamId: string;
  member: TeamMemberView;
}) {
  const next = member.role === "manager" ? "member" : "manager";
  return (
    <Form method="post" action="/team">
      <input type="hidden" name="intent" value="set-role" />
      <input type="hidden" name="teamId" value={teamId} />
      <input type="hidden" name="userId" value={member.userId} />
      <input type="hidden" name="role" value={next} />
      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`Make ${member.email} a ${next}`}>
        {next === "manager" ? "Make manager" : "Make member"}
      </Button>
    </Form>
  );
}

/** The one confirmation of a removal; closing it gives the focus back to the row's Remove button. */
function RemoveDialog({
  removing: { member, button },
  open,
  onOpenChange,
  onRemove,
}: {
  removing: Removing;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRemove: (who: string) => void;
}) {
  const who = member.name || member.email;
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (button.isConnected) button.focus();
        }}
      >
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
          <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={() => onRemove(who)}>
            Remove member
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
