import { Check } from "~/components/lucide-icons";
import { Link } from "react-router";
import { cn } from "~/lib/utils";
import { floatingLeasesLine, TRIAL_DAYS, type Plan } from "~/domain/plans";
import { planPriceLines, tablePrices, type LocalizedPrices } from "~/domain/localized-prices";
import { entitlementLabels } from "~/domain/entitlements";
import { registerForPlan } from "~/domain/return-to";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { NeedsScript } from "../needs-script";
import { useHydrated } from "../use-hydrated";
import { useRootData } from "../use-root-data";
import { MACHINE_TEXTS } from "~/domain/machine-texts";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "../ui/card";

/** One plan of the pricing page, at its price in the visitor's currency. Visitors choose through a link to /register. */
export function PlanCard({
  plan,
  prices = tablePrices(),
  showTrial,
  signedIn,
  highlighted = false,
  busy = false,
  onChoose,
}: {
  plan: Plan;
  /** Every plan's price in one currency (decision 0072); the plan table's US dollars by default. */
  prices?: LocalizedPrices;
  showTrial: boolean;
  signedIn: boolean;
  highlighted?: boolean;
  busy?: boolean;
  onChoose?: (plan: Plan) => void;
}) {
  // Machines a license of this plan may have active at once (MACHINES_PER_PLAN, decision 0041).
  const machines = useRootData()?.publicConfig.machinesPerPlan?.[plan.id];
  const machinesLine = machines ? [MACHINE_TEXTS.pricingLine(machines)] : [];
  const { amount, perMonth, savingsPercent: savings } = planPriceLines(prices, plan.id);
  const label = showTrial ? `Start ${TRIAL_DAYS}-day free trial` : `Choose ${plan.name}`;
  return (
    <Card
      data-testid={`plan-${plan.id}`}
      className={cn("relative h-full", highlighted && "border-primary shadow-lg shadow-primary/10")}
    >
      {highlighted ? <Badge className="absolute -top-3 left-1/2 -translate-x-1/2">Most popular</Badge> : null}
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">{plan.name}</h2>
        </CardTitle>
        <CardDescription className="flex min-h-6 flex-wrap items-center gap-2">
          {savings > 0 ? <Badge variant="success">Save {savings}%</Badge> : <span>Billed monthly</span>}
          {perMonth ? <span>{perMonth} per month</span> : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-5">
        {/* The period on its own line: beside the price it wrapped on one card only and pushed that card's content down. */}
        <p className="flex flex-col gap-1">
          <span className="text-4xl font-semibold tracking-tight" data-testid="plan-price">
            {amount}
          </span>
          <span className="text-sm text-muted-foreground">per license, {plan.period}</span>
        </p>
        {showTrial ? (
          <p className="rounded-md border border-primary/40 bg-primary/10 px-3 py-2 text-sm">
            {TRIAL_DAYS}-day free trial — you are charged when the trial ends, unless you cancel.
          </p>
        ) : null}
        <FeatureList plan={plan} extra={machinesLine} />
      </CardContent>
      <CardFooter className="flex-col items-stretch gap-1">
        {signedIn ? (
          <>
            <ChooseButton highlighted={highlighted} busy={busy} onClick={() => onChoose?.(plan)}>
              {label}
            </ChooseButton>
            <NeedsScript className="text-center" />
          </>
        ) : (
          <Button asChild className="w-full" variant={highlighted ? "default" : "secondary"}>
            <Link to={registerForPlan(plan.id)} aria-label={`${label} (${plan.name})`}>
              {label}
            </Link>
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}

/**
 * A signed-in customer's choice: the checkout needs JavaScript, so the button waits for it rather than
 * ignoring an early click. Its own component, so that only the button renders again once the page has
 * hydrated (a visitor's card, and the card's lines, do not: that render runs in one task).
 */
function ChooseButton({
  highlighted,
  busy,
  onClick,
  children,
}: {
  highlighted: boolean;
  busy: boolean;
  onClick: () => void;
  children: string;
}) {
  const hydrated = useHydrated();
  return (
    <Button
      type="button"
      className="w-full"
      variant={highlighted ? "default" : "secondary"}
      disabled={busy || !hydrated}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** The plan's lines: its terms, machines, entitlements and floating leases (from the plan table) and the rest. */
function FeatureList({ plan, extra }: { plan: Plan; extra: string[] }) {
  const floating = floatingLeasesLine(plan.floatingLeases);
  const lines = [
    "Auto-renewing",
    "Cancel anytime",
    ...extra,
    ...entitlementLabels(plan.entitlements),
    ...(floating ? [floating] : []),
    ...plan.features,
  ];
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {lines.map((feature) => (
        <li key={feature} className="flex items-center gap-2">
          <Check aria-hidden className="size-4 shrink-0 text-primary" />
          {feature}
        </li>
      ))}
    </ul>
  );
}
