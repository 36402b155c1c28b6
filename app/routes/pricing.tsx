import { publicPageMeta } from "~/lib/meta";
import { data } from "react-router";
import { DemoCheckout, PaddleSummary } from "~/components/billing/checkout-dialogs";
import { PlanCard } from "~/components/billing/plan-card";
import { PricingQuestions } from "~/components/billing/pricing-questions";
import { TeamOffer } from "~/components/billing/team-offer";
import { DiscountCodeField } from "~/components/billing/discount-code-field";
import { usePlanCheckout } from "~/components/billing/use-plan-checkout";
import { isPlanId, PLANS, TRIAL_DAYS } from "~/domain/plans";
import { planPricesSentence } from "~/domain/plan-words";
import { parseTeamSeats, TEAM_SEATS_ERROR, teamToOpen } from "~/domain/team-pricing";
import { CHECKOUT_ERRORS, type PlanCheckoutAnswer } from "~/lib/checkout";
import { ActionError } from "~/server/action-error.server";
import { getCurrentSession } from "~/server/auth/session.server";
import { requireUser } from "~/http/session-guards.server";
import { createPlanCheckout } from "~/server/billing/create-checkout.server";
import { createTeamCheckout } from "~/server/teams/team-checkout.server";
import { payDemoCheckout } from "~/server/billing/demo/pay-demo-checkout.server";
import { getBillingDetails, saveBillingDetails } from "~/server/billing/billing-details.server";
import { billingDetailsSchema } from "~/domain/billing-details-schema";
import { parseForm } from "~/lib/form";
import { hasAnyLicense } from "~/server/licenses/has-any-license.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { stillConvertingTrials } from "~/domain/trial-conversion";
import { TrialsStillConvert } from "~/components/billing/trials-still-convert";
import { getLogger } from "~/server/logger.server";
import { localizedPrices } from "~/server/billing/localized-prices.server";
import { requestCountry } from "~/server/billing/visitor-country.server";
import { quotedForCountry } from "~/server/billing/checkout-quote.server";
import { parseCountry } from "~/domain/countries";
import { DISCOUNT_ERRORS, parseDiscountCode } from "~/domain/discount-codes";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/pricing";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await getCurrentSession(request);
  const url = new URL(request.url);
  // Shown as a promise only; the checkout itself decides the trial again on the server.
  const firstTimeBuyer = !user || !(await hasAnyLicense(user.id));
  // The prices the provider's checkout would charge in the visitor's country, from the set they would
  // buy from; US dollars when the country is unknown or the provider did not answer (decision 0072).
  const { prices, settled } = await localizedPrices({ country: requestCountry(request), trial: firstTimeBuyer });
  if (!settled) context.keepOutOfPageCache?.();
  return {
    prices,
    // The demo checkout offers the profile's billing details for the invoice (decision 0040).
    customer: user ? { id: user.id, email: user.email, billing: await getBillingDetails(user.id) } : null,
    showTrial: firstTimeBuyer,
    // A trial of the user's still converts whatever is bought now: the page and the checkout say so.
    trialNotices: user && !firstTimeBuyer ? stillConvertingTrials(await listUserLicenses(user.id), new Date()) : [],
    // The team form's choice (`?plan=&seats=`, its GET before scripts): its values and total.
    teamChoice: teamToOpen(url.searchParams),
    invalidSeats: url.searchParams.has("seats") && parseTeamSeats(url.searchParams.get("seats")) === null,
  };
}

/** The server creates every checkout (it picks the price and the trial) and pays demo ones. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const fail = (status: number, error: string) => data<PlanCheckoutAnswer>({ error }, { status });
  try {
    switch (form.get("intent")) {
      case "checkout": {
        const plan = form.get("plan");
        if (!isPlanId(plan)) return fail(400, CHECKOUT_ERRORS.invalidPlan);
        // A discount code's form is checked before anything else; the provider checks the rest (decision 0073).
        const code = parseDiscountCode(form.get("discountCode"));
        if (!code.ok) return fail(400, code.error);
        // Quoted in the currency of the country the page priced (decision 0072); charged by the price id.
        const country = parseCountry(form.get("country")) ?? requestCountry(request);
        // A team's checkout names its seats (2–100), bought without a trial; the buyer owns the team.
        if (form.has("seats")) {
          if (code.code) return fail(400, DISCOUNT_ERRORS.team);
          const seats = parseTeamSeats(form.get("seats"));
          if (seats === null) return fail(400, TEAM_SEATS_ERROR);
          const team = await createTeamCheckout({ userId: user.id, email: user.email, planId: plan, seats, country });
          return data<PlanCheckoutAnswer>({ checkout: await quotedForCountry(team, country) });
        }
        const checkout = await createPlanCheckout({
          userId: user.id,
          email: user.email,
          planId: plan,
          discountCode: code.code,
          country,
        });
        return data<PlanCheckoutAnswer>({ checkout: await quotedForCountry(checkout, country) });
      }
      case "demo-pay": {
        // The billing details given in the demo checkout go to the profile, printed on the invoice.
        const billing = parseForm(billingDetailsSchema, form);
        if (!billing.success) return fail(400, Object.values(billing.fieldErrors).flat()[0]!);
        if (form.has("billing_name")) await saveBillingDetails(user.id, billing.data);
        return data<PlanCheckoutAnswer>({
          paid: await payDemoCheckout({ userId: user.id, transactionId: form.get("transactionId") }),
        });
      }
      default:
        return fail(400, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error }, "checkout failed");
    return fail(500, CHECKOUT_ERRORS.openFailed);
  }
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { customer, prices, showTrial, trialNotices, teamChoice, invalidSeats } = loaderData;
  const signedIn = Boolean(customer);
  const { creator, choose, demoCheckout, paddleSummary, setPaddleSummary, onEvent, openPaddle, ...code } =
    usePlanCheckout(customer);
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Simple pricing, per license</h1>
        <p className="mt-3 text-muted-foreground">
          Each plan lists the features it includes, and every plan renews automatically. Cancel anytime; you keep access
          until the end of the period you paid for.
          {showTrial ? ` New customers start with a ${TRIAL_DAYS}-day free trial.` : ""}
        </p>
      </div>
      <TrialsStillConvert notices={trialNotices} className="mx-auto mt-8 max-w-2xl" />
      <DiscountCodeField value={code.discountCode} onChange={code.setDiscountCode} showTrial={showTrial} />
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {PLANS.map((plan) => (
          <li key={plan.id}>
            <PlanCard
              plan={plan}
              prices={prices}
              showTrial={showTrial}
              signedIn={signedIn}
              highlighted={plan.mostPopular}
              busy={
                creator.state !== "idle" && creator.formData?.get("plan") === plan.id && !creator.formData.has("seats")
              }
              onChoose={() => choose(plan.id)}
            />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-muted-foreground" data-testid="prices-note">
        {prices.note}
      </p>
      <section aria-label="For teams" className="mx-auto mt-12 max-w-3xl">
        <TeamOffer
          signedIn={signedIn}
          prices={prices}
          chosen={teamChoice}
          invalidSeats={invalidSeats}
          busy={creator.state !== "idle" && creator.formData?.has("seats") === true}
          onBuy={({ planId, seats }) => choose(planId, seats)}
        />
      </section>
      <DemoCheckout
        checkout={demoCheckout}
        email={customer?.email ?? ""}
        billing={customer?.billing ?? null}
        onFinish={onEvent}
        trialNotices={trialNotices}
      />
      <PaddleSummary
        checkout={paddleSummary}
        onContinue={openPaddle}
        onClose={() => setPaddleSummary(null)}
        trialNotices={trialNotices}
      />

      <PricingQuestions />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/pricing",
    title: "Pricing",
    description: `${planPricesSentence()} per license; auto-renewing, cancel anytime, ${TRIAL_DAYS}-day free trial for new customers.`,
  });
