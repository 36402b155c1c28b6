import { useId, useState, type FormEvent } from "react";
import { Form, Link, useNavigate } from "react-router";
import type { LocalizedPrices } from "~/domain/localized-prices";
import { PLANS, type PlanId } from "~/domain/plans";
import { parseTeamSeats, registerForTeam, TEAM_SEATS_ERROR, teamTotalLine } from "~/domain/team-pricing";
import { TEAM_SEATS_MAX, TEAM_SEATS_MIN } from "~/domain/team-seats";
import { cn } from "~/lib/utils";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { useHydrated } from "../use-hydrated";

/** The team's choice: the plan and the seat count (2–100). */
export interface TeamChoice {
  planId: PlanId;
  seats: number;
}

interface TeamSeatsFormProps {
  signedIn: boolean;
  /** The page's prices: a seat costs a plan's price, in the visitor's currency (decision 0072). */
  prices: LocalizedPrices;
  /** The choice in the address (`?plan=&seats=`), shown as the form's starting values. */
  chosen: TeamChoice | null;
  /** The address named a seat count out of bounds. */
  invalidSeats: boolean;
  busy: boolean;
  onBuy: (choice: TeamChoice) => void;
  /** What the server's copy of the form held when this one took its place (team-offer.tsx). */
  start?: { planId: PlanId; seatsText: string };
}

/**
 * The pricing page's team offer (decision 0047): a plan for 2–100 seats with the total shown as the buyer
 * types. It is a real GET form to /pricing: before scripts it shows the total on the server and,
 * for a visitor, the way to register with those seats; with scripts it opens the checkout (signed
 * in) or goes to registration (visitor) at once.
 */
export function TeamSeatsForm({ signedIn, prices, chosen, invalidSeats, busy, onBuy, start }: TeamSeatsFormProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [planId, setPlanId] = useState<PlanId>(start?.planId ?? chosen?.planId ?? "yearly");
  const [seatsText, setSeatsText] = useState(start?.seatsText ?? String(chosen?.seats ?? 5));
  const seats = parseTeamSeats(seatsText);
  const showError = seats === null && (hydrated || invalidSeats);
  const ids = { seats: useId(), total: useId() };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (seats === null) return;
    if (signedIn) onBuy({ planId, seats });
    else navigate(registerForTeam(planId, seats));
  };
  const seatPrice = { amountMinor: prices.plans[planId].amountMinor, currency: prices.currency };
  const count = seats === null ? "" : ` ${seats}`;
  const label = !hydrated ? "Show the total" : signedIn ? `Buy${count} seats` : `Continue with${count} seats`;
  return (
    <Card data-testid="team-offer">
      <CardHeader>
        <CardTitle>
          <h2 id="team" className="text-xl">
            For teams
          </h2>
        </CardTitle>
        <CardDescription>
          Buy {TEAM_SEATS_MIN} to {TEAM_SEATS_MAX} seats on one subscription and hand them out by e-mail from your team
          page. No trial; add seats any time, prorated.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="get" action="/pricing#team" onSubmit={hydrated ? submit : undefined} className="grid gap-5">
          <PlanChoice planId={planId} prices={prices} onChange={setPlanId} />
          <div className="grid gap-2 sm:max-w-48">
            <Label htmlFor={ids.seats}>Seats</Label>
            <Input
              id={ids.seats}
              name="seats"
              type="number"
              inputMode="numeric"
              min={TEAM_SEATS_MIN}
              max={TEAM_SEATS_MAX}
              step={1}
              required
              value={seatsText}
              onChange={(event) => setSeatsText(event.target.value)}
              aria-invalid={showError || undefined}
              aria-describedby={ids.total}
            />
          </div>
          <p id={ids.total} aria-live="polite" data-testid="team-total" className="text-lg font-medium">
            {showError ? <span className="text-destructive">{TEAM_SEATS_ERROR}</span> : null}
            {seats !== null ? `Total: ${teamTotalLine(planId, seats, seatPrice)}` : null}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={busy || (hydrated && seats === null)}>
              {label}
            </Button>
            <BeforeScripts signedIn={signedIn} chosen={chosen} hydrated={hydrated} />
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The plans as radio buttons, each with its price per seat. */
function PlanChoice({
  planId,
  prices,
  onChange,
}: {
  planId: PlanId;
  prices: LocalizedPrices;
  onChange: (planId: PlanId) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Plan</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {PLANS.map((plan) => (
          <label
            key={plan.id}
            className={cn(
              "flex cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2 text-sm",
              plan.id === planId && "border-primary bg-primary/10",
            )}
          >
            <input
              type="radio"
              name="plan"
              value={plan.id}
              checked={plan.id === planId}
              onChange={() => onChange(plan.id)}
              className="size-4 accent-primary"
            />
            <span>
              <span className="font-medium">{plan.name}</span>{" "}
              <span className="text-muted-foreground">
                {prices.plans[plan.id].amount} / seat, {plan.period}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Before scripts: a visitor registers with the seats shown; a signed-in buyer needs scripts to pay. */
function BeforeScripts({
  signedIn,
  chosen,
  hydrated,
}: {
  signedIn: boolean;
  chosen: TeamChoice | null;
  hydrated: boolean;
}) {
  if (hydrated || !chosen) return null;
  if (signedIn)
    return (
      <span data-testid="needs-script" className="text-xs text-muted-foreground">
        Paying needs JavaScript
      </span>
    );
  return (
    <Link
      to={registerForTeam(chosen.planId, chosen.seats)}
      className="text-sm text-primary underline underline-offset-4"
    >
      Create an account to buy {chosen.seats} seats
    </Link>
  );
}
