import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import type { TeamView } from "~/domain/team-page";
import { useTeamAction } from "./use-team-action";

/** Invite several addresses at once (owner or manager); each gets a link valid 7 days. */
export function TeamInvite({ team }: { team: TeamView }) {
  const { fetcher, busy } = useTeamAction();
  const form = useRef<HTMLFormElement>(null);
  // A sent invitation empties the box; a refused one keeps what was typed to correct it.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data]);
  const room = team.seats.invitable;
  return (
    <section aria-labelledby="invite" className="rounded-lg border p-4">
      <h2 id="invite" className="text-xl font-semibold">
        Invite colleagues
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {room > 0
          ? `${room} free ${room === 1 ? "seat" : "seats"}. Each invitation link is valid for 7 days; they accept by logging in or registering with the invited address.`
          : "No free seats to invite to: add seats, withdraw an invitation or remove a member first."}
      </p>
      <fetcher.Form ref={form} method="post" action="/team" className="mt-3 grid gap-2">
        <input type="hidden" name="intent" value="invite" />
        <input type="hidden" name="teamId" value={team.id} />
        <Label htmlFor="invite-emails">E-mail addresses (separated by commas, spaces or lines)</Label>
        <textarea
          id="invite-emails"
          name="emails"
          rows={3}
          required
          placeholder="grace@example.com, alan@example.com"
          className="w-full rounded-md border border-input bg-background/60 px-3 py-2 text-base outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 md:text-sm"
        />
        <Button type="submit" className="justify-self-start" disabled={busy}>
          Send invitations
        </Button>
      </fetcher.Form>
    </section>
  );
}
