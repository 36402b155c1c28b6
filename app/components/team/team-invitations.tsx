import { Button } from "~/components/ui/button";
import { CardCell, CardRow, CardTable } from "~/components/ui/card-table";
import { formatDate } from "~/domain/format-date";
import type { TeamInvitationView, TeamView } from "~/domain/team-page";
import { useTeamAction } from "./use-team-action";

/** The open (and expired) invitations: address, until when, resend with a new link, withdraw. */
export function TeamInvitations({ team }: { team: TeamView }) {
  const open = team.invitations.filter((invitation) => invitation.state === "open" || invitation.state === "expired");
  return (
    <section aria-labelledby="invitations" className="rounded-lg border">
      <h2 id="invitations" className="border-b p-4 text-xl font-semibold">
        Invitations
      </h2>
      {open.length === 0 ? (
        <p className="p-4 text-sm text-muted-foreground">No open invitations.</p>
      ) : (
        <CardTable
          caption="Open invitations"
          columns={[{ label: "E-mail" }, { label: "Link" }, { label: <span className="sr-only">Actions</span> }]}
        >
          {open.map((invitation) => (
            <InvitationRow key={invitation.id} teamId={team.id} invitation={invitation} />
          ))}
        </CardTable>
      )}
    </section>
  );
}

function InvitationRow({ teamId, invitation }: { teamId: string; invitation: TeamInvitationView }) {
  const { fetcher, busy } = useTeamAction();
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="teamId" value={teamId} />
      <input type="hidden" name="invitationId" value={invitation.id} />
    </>
  );
  return (
    <CardRow data-testid="team-invitation">
      <CardCell label="E-mail" rowHeader>
        {invitation.email}
      </CardCell>
      <CardCell label="Link">
        {invitation.state === "expired" ? "Expired" : `Valid until ${formatDate(invitation.expiresAt)}`}
      </CardCell>
      <CardCell label="Actions" className="md:text-right">
        <span className="inline-flex flex-wrap gap-2 md:justify-end">
          <fetcher.Form method="post" action="/team">
            {hidden("resend")}
            <Button
              type="submit"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-label={`Resend to ${invitation.email}`}
            >
              Resend
            </Button>
          </fetcher.Form>
          <fetcher.Form method="post" action="/team">
            {hidden("withdraw")}
            <Button
              type="submit"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-label={`Withdraw ${invitation.email}`}
            >
              Withdraw
            </Button>
          </fetcher.Form>
        </span>
      </CardCell>
    </CardRow>
  );
}
