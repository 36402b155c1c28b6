import { publicPageMeta } from "~/lib/meta";
import { useEffect, useEffectEvent, useState } from "react";
import { PaddleCheckoutSummary } from "~/components/billing/paddle-checkout-summary";
import { planToOpen } from "~/domain/return-to";
import { useAnswer } from "~/components/use-answer";
import { data, Link, useFetcher, useNavigate, useSearchParams } from "react-router";
import { DemoCheckoutDialog } from "~/components/billing/demo-checkout-dialog";
import { PlanCard } from "~/components/billing/plan-card";
import { useCheckout } from "~/components/billing/use-checkout";
import { isPlanId, PLANS, TRIAL_DAYS, type PlanId } from "~/domain/plans";
import {
  CHECKOUT_ERRORS,
  CHECKOUT_ERROR_TITLE,
  openTransactionCheckout,
  planCheckoutProblem,
  successPath,
  type CheckoutEvent,
  type PlanCheckoutAnswer,
  type PlanCheckoutView,
} from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import { useRootData } from "~/components/use-root-data";
import { ActionError } from "~/server/action-error.server";
import { getCurrentSession, requireUser } from "~/server/auth/session.server";
import { createPlanCheckout } from "~/server/billing/create-checkout.server";
import { payDemoCheckout } from "~/server/billing/demo/pay-demo-checkout.server";
import { getBillingDetails, saveBillingDetails } from "~/server/billing/billing-details.server";
import { billingDetailsSchema } from "~/domain/billing-details";
import { parseForm } from "~/lib/form";
import { hasAnyLicense } from "~/server/licenses/has-any-license.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { stillConvertingTrials } from "~/domain/trial-conversion";
import { TrialsStillConvert } from "~/components/billing/trials-still-convert";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/server/read-form.server";
import type { Route } from "./+types/pricing";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await getCurrentSession(request);
  // Shown as a promise only; the checkout itself decides the trial again on the server.
  const firstTimeBuyer = !user || !(await hasAnyLicense(user.id));
  return {
    // The demo checkout offers the profile's billing details for the invoice (issue 28).
    customer: user ? { id: user.id, email: user.email, billing: await getBillingDetails(user.id) } : null,
    showTrial: firstTimeBuyer,
    // A trial of the user's still converts whatever is bought now: the page and the checkout say so.
    trialNotices: user && !firstTimeBuyer ? stillConvertingTrials(await listUserLicenses(user.id), new Date()) : [],
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
        return data<PlanCheckoutAnswer>({
          checkout: await createPlanCheckout({ userId: user.id, email: user.email, planId: plan }),
        });
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

/**
 * Choosing a plan: the server creates the checkout, then the demo overlay or (Paddle) a summary before
 * Paddle's overlay; a plan picked before signing in (`?plan=`) opens once the checkout can.
 */
function usePlanCheckout(customer: { id: string; email: string } | null) {
  const config = useRootData()!.publicConfig;
  const signedIn = Boolean(customer);
  const navigate = useNavigate();
  const creator = useFetcher<PlanCheckoutAnswer>();
  const [demoCheckout, setDemoCheckout] = useState<PlanCheckoutView | null>(null);
  const [paddleSummary, setPaddleSummary] = useState<PlanCheckoutView | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const planFromAddress = planToOpen(searchParams);
  const onEvent = (event: CheckoutEvent) => {
    setDemoCheckout(null);
    if (event.name !== "checkout.completed") return; // closing the checkout is silent
    const path = successPath(event.transactionId);
    if (path) navigate(path);
    else
      showToast({
        title: "Payment successful",
        description: "Your license will appear on your licenses page shortly.",
        variant: "success",
      });
  };
  const checkout = useCheckout(config, onEvent);
  const fail = (description: string) => showToast({ title: CHECKOUT_ERROR_TITLE, description, variant: "destructive" });
  const choose = (planId: string) => {
    const problem = planCheckoutProblem({ system: checkout.system, user: customer, planId });
    if (problem) return fail(problem);
    creator.submit({ intent: "checkout", plan: planId }, { method: "post", action: "/pricing" });
  };
  useAnswer(creator.data, creator.state === "idle", (answer) => {
    if ("error" in answer) return fail(answer.error);
    if (!("checkout" in answer)) return;
    if (config.paymentProvider === "demo") return setDemoCheckout(answer.checkout);
    // Paddle: first what happens next, then Paddle's overlay.
    setPaddleSummary(answer.checkout);
  });
  const openPaddle = (prepared: PlanCheckoutView) => {
    setPaddleSummary(null);
    const problem = openTransactionCheckout(checkout.system, prepared.transactionId, customer?.email ?? null);
    if (problem) fail(problem);
  };
  // A plan picked before registering or logging in (`?plan=`): its checkout opens once, as soon as
  // the checkout can; the plan then leaves the address, so a reload does not open it again.
  const openPlanFromAddress = useEffectEvent((planId: PlanId) => {
    setSearchParams(
      (params) => {
        params.delete("plan");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
    choose(planId);
  });
  const systemStatus = checkout.system.status;
  useEffect(() => {
    if (planFromAddress && signedIn && systemStatus !== "loading") openPlanFromAddress(planFromAddress);
  }, [planFromAddress, signedIn, systemStatus]);
  return { creator, choose, demoCheckout, paddleSummary, setPaddleSummary, onEvent, openPaddle };
}

/** The questions a buyer asks before paying: what a license covers, offline use, the trial, refunds, the payer. */
function PricingQuestions() {
  return (
    <section aria-labelledby="faq" className="mx-auto mt-16 max-w-3xl">
      <h2 id="faq" className="text-2xl font-semibold tracking-tight">
        Questions
      </h2>
      <dl className="mt-6 flex flex-col gap-6">
        <div>
          <dt className="font-medium">What does one license cover?</dt>
          <dd className="mt-1 text-muted-foreground">
            One person on one Windows machine. Buy more licenses from your licenses page whenever your team grows.
          </dd>
        </div>
        <div>
          <dt className="font-medium">Can I use it offline?</dt>
          <dd className="mt-1 text-muted-foreground">
            Yes. Tie a license to your Windows username or computer name once, and the tool checks it without a
            connection.
          </dd>
        </div>
        <div>
          <dt className="font-medium">How does the free trial work?</dt>
          <dd className="mt-1 text-muted-foreground">
            If you have never had a license, your first plan starts with {TRIAL_DAYS} free days. Cancel before they end
            and you pay nothing.
          </dd>
        </div>
        <div>
          <dt className="font-medium">Can I get a refund?</dt>
          <dd className="mt-1 text-muted-foreground">
            Within 14 days of purchase you can request a refund from your licenses page. See the{" "}
            <Link to="/refund-policy" className="text-primary underline underline-offset-4">
              refund policy
            </Link>{" "}
            for the details.
          </dd>
        </div>
        <div>
          <dt className="font-medium">Who handles the payment?</dt>
          <dd className="mt-1 text-muted-foreground">
            Paddle, our reseller and merchant of record, processes payments, invoices and sales tax. We never see your
            card number.
          </dd>
        </div>
      </dl>
    </section>
  );
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { customer, showTrial, trialNotices } = loaderData;
  const signedIn = Boolean(customer);
  const { creator, choose, demoCheckout, paddleSummary, setPaddleSummary, onEvent, openPaddle } =
    usePlanCheckout(customer);
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Simple pricing, per license</h1>
        <p className="mt-3 text-muted-foreground">
          Every plan includes every feature and renews automatically. Cancel anytime; you keep access until the end of
          the period you paid for.
          {showTrial ? ` New customers start with a ${TRIAL_DAYS}-day free trial.` : ""}
        </p>
      </div>
      <TrialsStillConvert notices={trialNotices} className="mx-auto mt-8 max-w-2xl" />
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {PLANS.map((plan) => (
          <li key={plan.id}>
            <PlanCard
              plan={plan}
              showTrial={showTrial}
              signedIn={signedIn}
              highlighted={plan.id === "yearly"}
              busy={creator.state !== "idle" && creator.formData?.get("plan") === plan.id}
              onChoose={() => choose(plan.id)}
            />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Prices in US dollars. Taxes are added at checkout where they apply.
      </p>
      <DemoCheckoutDialog
        checkout={demoCheckout}
        email={customer?.email ?? ""}
        billing={customer?.billing ?? null}
        onFinish={onEvent}
        trialNotices={trialNotices}
      />
      <PaddleCheckoutSummary
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
    description:
      "Monthly $9, 6 months $49.50 or yearly $90 per license; auto-renewing, cancel anytime, 7-day free trial for new customers.",
  });
