import { Users } from "~/components/lucide-icons";
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
import { Button } from "~/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { cn } from "~/lib/utils";
import { CLAIM_TEXTS, type ClaimableTeamView } from "~/domain/team-claim-texts";
import { NeedsScript } from "../needs-script";
import { useTeamAction, useTeamActionToast } from "./use-team-action";

/** The claim fetcher's key: the list shows its answer, since the card that asked is gone once the seat is taken. */
const CLAIM_KEY = "claim-seat";

/**
 * The teams offering the signed-in user a seat by their confirmed address's domain (docs/product.md), one
 * card each, on /licenses and /team: "Take a seat" asks for confirmation, then the /team action
 * claims it on the server (which checks the domain, the confirmed address and a free seat again).
 */
export function ClaimSeatCards({ teams, className }: { teams: readonly ClaimableTeamView[]; className?: string }) {
  // A refusal is said on the card (ClaimSeatCard); a seat taken removes the card, so its toast is shown here.
  useTeamActionToast(CLAIM_KEY, { failuresShownHere: true });
  if (teams.length === 0) return null;
  return (
    <section aria-label="Seats offered to you" className={cn("grid gap-4 text-left", className)}>
      {teams.map((team) => (
        <ClaimSeatCard key={team.id} team={team} />
      ))}
    </section>
  );
}

function ClaimSeatCard({ team }: { team: ClaimableTeamView }) {
  const { fetcher, submit, busy, hydrated } = useTeamAction(CLAIM_KEY, false);
  const refusal = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.toast : null;
  return (
    <Card data-testid="claim-seat-card" className="border-primary/40 bg-primary/5">
      <CardHeader>
        <CardTitle className="flex items-start gap-2 text-lg">
          <Users aria-hidden className="mt-1 size-5 shrink-0 text-primary" />
          {CLAIM_TEXTS.cardTitle(team.name)}
        </CardTitle>
        <CardDescription>{CLAIM_TEXTS.cardBody(team.domain)}</CardDescription>
        {refusal ? (
          <p role="alert" className="text-sm text-destructive">
            {refusal.description}
          </p>
        ) : null}
      </CardHeader>
      <CardFooter className="flex-wrap gap-3">
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button type="button" disabled={busy || !hydrated}>
              {CLAIM_TEXTS.take}
            </Button>
          </AlertDialogTrigger>
          <NeedsScript />
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>{CLAIM_TEXTS.confirmTitle(team.name)}</AlertDialogTitle>
              <AlertDialogDescription>{CLAIM_TEXTS.confirmBody(team.name)}</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>{CLAIM_TEXTS.keep}</AlertDialogCancel>
              <AlertDialogAction onClick={() => submit({ intent: "claim-seat", teamId: team.id })}>
                {CLAIM_TEXTS.confirm}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardFooter>
    </Card>
  );
}
