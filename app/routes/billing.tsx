import { Link } from "react-router";
import { BillingHistory } from "~/components/billing/billing-history";
import { InvoiceIssuerNote } from "~/components/billing/invoice-issuer-note";
import { BillingOverviewSections } from "~/components/billing/billing-overview";
import { Button } from "~/components/ui/button";
import { BILLING_TEXTS } from "~/domain/billing";
import { nextCardChange } from "~/domain/license-card";
import { pageTitle } from "~/lib/meta";
import { requireUser } from "~/http/session-guards.server";
import { listBillingHistory } from "~/server/billing/billing-history.server";
import { billingOverview } from "~/server/billing/billing-overview.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import type { Route } from "./+types/billing";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const now = new Date();
  const [entries, licenses] = await Promise.all([listBillingHistory(user.id), listUserLicenses(user.id)]);
  // The same session may get this page again from memory for a minute, unless a payment, license or
  // the session changes first (decision 0028), or the clock alone moves a charge (a trial's end).
  const minute = now.getTime() + 60_000;
  context.reuseAnswerUntil?.(new Date(Math.min(minute, nextCardChange(licenses, now)?.getTime() ?? minute)));
  return { entries, overview: billingOverview(licenses, entries, now) };
}

export default function Billing({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-12 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight">{BILLING_TEXTS.title}</h1>
          <p className="mt-1 text-muted-foreground">{BILLING_TEXTS.intro}</p>
        </div>
        <Button asChild variant="outline">
          <Link to="/licenses">Your licenses</Link>
        </Button>
      </div>
      <BillingOverviewSections overview={loaderData.overview} />
      <h2 className="mt-8 text-xl font-semibold">Payments</h2>
      <BillingHistory entries={loaderData.entries} />
      <InvoiceIssuerNote />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Billing"),
  { name: "description", content: "Your payments and invoices." },
];

/** The payments could not be read: say so, and offer to try again. */
export function ErrorBoundary() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Failed to load your billing history</h1>
      <p className="text-muted-foreground">Something went wrong on our side. Please try again in a moment.</p>
      <a href="/billing" className="text-primary underline underline-offset-4">
        Try again
      </a>
    </div>
  );
}
