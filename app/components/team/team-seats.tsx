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
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatDate } from "~/domain/format-date";
import { PAYMENT_PROBLEM_TEXTS } from "~/domain/past-due";
import { TEAM_SEATS_MAX, TEAM_SEATS_MIN } from "~/domain/team-seats";
import { seatQuoteText, type SeatQuoteView, type TeamView } from "~/domain/team-page";
import { NeedsScript } from "../needs-script";
import { useAnswer } from "../use-answer";
import { useTeamAction } from "./use-team-action";

/**
 * The owner changes the seat count: the server quotes the change first (more seats now with the
 * prorated price, fewer from the next renewal, never below the assigned seats), the owner confirms
 * it with its price, then it is made.
 */
export function TeamSeats({ team }: { team: TeamView }) {
  const quoter = useTeamAction();
  const changer = useTeamAction();
  const [quote, setQuote] = useState<SeatQuoteView | null>(null);
  useAnswer(quoter.fetcher.data, quoter.fetcher.state === "idle", (answer) => setQuote(answer.quote ?? null));
  const current = team.seats.nextRenewal ?? team.seats.paid;
  const overdue = team.subscription?.overdue;
  if (overdue) return <SeatsWhileOverdue team={team} graceEnd={overdue.graceEnd} />;
  return (
    <section aria-labelledby="seats" className="rounded-lg border p-4">
      <h2 id="seats" className="text-xl font-semibold">
        Seats
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        More seats are added now and charged prorated for the rest of the period; fewer seats take effect at the next
        renewal, and never fewer than the {team.seats.assigned} assigned.
      </p>
      <quoter.fetcher.Form method="post" action="/team" className="mt-3 flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="quote-seats" />
        <input type="hidden" name="teamId" value={team.id} />
        <div className="grid gap-2">
          <Label htmlFor="team-seat-count">Number of seats</Label>
          <Input
            id="team-seat-count"
            name="seats"
            type="number"
            min={TEAM_SEATS_MIN}
            max={TEAM_SEATS_MAX}
            step={1}
            required
            defaultValue={current}
            className="w-32"
          />
        </div>
        <Button type="submit" variant="secondary" disabled={quoter.busy || !quoter.hydrated}>
          Review the change
        </Button>
        <NeedsScript />
      </quoter.fetcher.Form>
      <AlertDialog open={quote !== null} onOpenChange={(open) => (open ? null : setQuote(null))}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Change to {quote?.seats} seats?</AlertDialogTitle>
            <AlertDialogDescription data-testid="seat-quote">
              {quote ? seatQuoteText(quote, formatDate(quote.renewsAt)) : null}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep {current} seats</AlertDialogCancel>
            <AlertDialogAction
              onClick={() =>
                quote && changer.submit({ intent: "change-seats", teamId: team.id, seats: String(quote.seats) })
              }
            >
              {quote?.effect === "now" ? "Pay and add seats" : "Confirm"}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}

/**
 * The team's renewal payment failed: the provider refuses seat changes until it is paid, so the
 * page says what the owner can do instead (update the payment method on the licenses page) and
 * what happens at the grace period's end.
 */
function SeatsWhileOverdue({ team, graceEnd }: { team: TeamView; graceEnd: string | null }) {
  return (
    <section aria-labelledby="seats" className="rounded-lg border p-4" data-testid="team-seats-overdue">
      <h2 id="seats" className="text-xl font-semibold">
        Seats
      </h2>
      <p className="mt-1 text-sm">
        {team.seats.paid} seats. {PAYMENT_PROBLEM_TEXTS.whileOverdue(graceEnd ? formatDate(graceEnd) : null)}
      </p>
      <Button asChild variant="secondary" className="mt-3">
        <a href="/licenses">{PAYMENT_PROBLEM_TEXTS.button}</a>
      </Button>
    </section>
  );
}
