import { data, Link, useNavigate } from "react-router";
import { DemoCheckoutDialog, type DemoCheckoutResult } from "~/components/demo-checkout-dialog";
import { PlanCard } from "~/components/plan-card";
import { useCheckout } from "~/components/use-checkout";
import { isPlanId, PLANS, priceIdFor, TRIAL_DAYS } from "~/domain/plans";
import { CHECKOUT_ERRORS, CHECKOUT_ERROR_TITLE, openPlanCheckout, successPath, type CheckoutEvent } from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import { useRootData } from "~/root";
import { getCurrentSession, requireUser } from "~/server/auth/session.server";
import { getDemoProvider } from "~/server/billing/payment-provider.server";
import { configuredPriceIds } from "~/server/billing/price-ids.server";
import { hasAnyLicense } from "~/server/licenses/has-any-license.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/server/read-form.server";
import type { Route } from "./+types/pricing";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await getCurrentSession(request);
  // The trial (and the price-id set that carries it) is for users who never had a license;
  // decided here, not in the browser.
  const firstTimeBuyer = !user || !(await hasAnyLicense(user.id));
  const ids = configuredPriceIds();
  return {
    customer: user ? { id: user.id, email: user.email } : null,
    showTrial: firstTimeBuyer,
    priceIds: user ? (firstTimeBuyer ? ids.trial : ids.regular) : null,
  };
}

/** The demo provider's Pay: the server chooses the price and records the purchase. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const fail = (status: number, error: string) => data<DemoCheckoutResult>({ error }, { status });
  if (form.get("intent") !== "demo-checkout") return fail(400, "Unknown action.");
  const demo = getDemoProvider();
  if (!demo) return fail(404, CHECKOUT_ERRORS.unavailable);
  const plan = form.get("plan");
  if (!isPlanId(plan)) return fail(400, CHECKOUT_ERRORS.invalidPlan);
  const firstTimeBuyer = !(await hasAnyLicense(user.id));
  try {
    const { transactionId } = await demo.checkout({
      userId: user.id,
      planId: plan,
      priceId: priceIdFor(plan, { firstTimeBuyer }, configuredPriceIds()),
      trial: firstTimeBuyer,
    });
    return data<DemoCheckoutResult>({ transactionId });
  } catch (error) {
    getLogger().error({ err: error }, "demo checkout failed");
    return fail(502, CHECKOUT_ERRORS.openFailed);
  }
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { customer, showTrial, priceIds } = loaderData;
  const signedIn = Boolean(customer);
  const navigate = useNavigate();
  const config = useRootData()!.publicConfig;
  const onEvent = (event: CheckoutEvent) => {
    if (event.name !== "checkout.completed") return; // closing the checkout is silent
    const path = successPath(event.transactionId);
    if (path) navigate(path);
    else showToast({ title: "Payment successful", description: "Your license will appear on your licenses page shortly.", variant: "success" });
  };
  const checkout = useCheckout(config, onEvent);
  const choose = (planId: string) => {
    const error = openPlanCheckout({ system: checkout.system, user: customer, planId, priceIds: priceIds ?? {} });
    if (error) showToast({ title: CHECKOUT_ERROR_TITLE, description: error, variant: "destructive" });
  };
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Simple pricing, per license</h1>
        <p className="mt-3 text-muted-foreground">
          Every plan includes every feature and renews automatically. Cancel anytime; you keep access until the end of the
          period you paid for.
          {showTrial ? ` New customers start with a ${TRIAL_DAYS}-day free trial.` : ""}
        </p>
      </div>
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {PLANS.map((plan) => (
          <li key={plan.id}>
            <PlanCard
              plan={plan}
              showTrial={showTrial}
              signedIn={signedIn}
              highlighted={plan.id === "yearly"}
              onChoose={() => choose(plan.id)}
            />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-muted-foreground">Prices in US dollars. Taxes are added at checkout where they apply.</p>
      <DemoCheckoutDialog request={checkout.demoRequest} trial={showTrial} onFinish={checkout.finishDemo} />

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
              Yes. Tie a license to your Windows username or computer name once, and the tool checks it without a connection.
            </dd>
          </div>
          <div>
            <dt className="font-medium">How does the free trial work?</dt>
            <dd className="mt-1 text-muted-foreground">
              If you have never had a license, your first plan starts with {TRIAL_DAYS} free days. Cancel before they end and
              you pay nothing.
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
              Paddle, our reseller and merchant of record, processes payments, invoices and sales tax. We never see your card
              number.
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Pricing | ForgeKit" },
  { name: "description", content: "Monthly $9, 6 months $49.50 or yearly $90 per license; auto-renewing, cancel anytime, 7-day free trial for new customers." },
];
