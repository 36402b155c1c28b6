import { Link } from "react-router";
import { PlanCard } from "~/components/plan-card";
import { PLANS, TRIAL_DAYS } from "~/domain/plans";
import { showToast } from "~/lib/toast";
import { getCurrentSession } from "~/server/auth/session.server";
import { hasAnyLicense } from "~/server/licenses/has-any-license.server";
import type { Route } from "./+types/pricing";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await getCurrentSession(request);
  // The trial is for visitors and users who never had a license; decided here, not in the browser.
  const showTrial = !user || !(await hasAnyLicense(user.id));
  return { signedIn: Boolean(user), showTrial };
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { signedIn, showTrial } = loaderData;
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
              onChoose={() =>
                showToast({
                  title: "Checkout Error",
                  description: "Payment system not available. Please refresh the page.",
                  variant: "destructive",
                })
              }
            />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-muted-foreground">Prices in US dollars. Taxes are added at checkout where they apply.</p>

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
