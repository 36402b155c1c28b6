import { AlertTriangle, Archive, CalendarClock, Undo2 } from "~/components/lucide-icons";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatMoney } from "~/domain/billing";
import type { BillingOverview } from "~/domain/billing-overview";
import { formatDate } from "~/domain/format-date";
import { Badge } from "../ui/badge";

/**
 * /billing above the payments (decision 0030): the charges to come (date, amount, license), renewals that
 * could not be charged, and refunds pending and done. Lists, not tables, so they read at 390 px.
 */
export function BillingOverviewSections({ overview }: { overview: BillingOverview }) {
  return (
    <div className="mt-8 flex flex-col gap-6">
      <OverviewSection id="upcoming-charges" title="Upcoming charges" icon={<CalendarClock aria-hidden />}>
        {overview.upcoming.length === 0 ? (
          <p className="px-4 py-3 text-sm text-muted-foreground" data-testid="no-upcoming-charges">
            No charges are coming: none of your licenses renews automatically.
          </p>
        ) : (
          <ul className="divide-y">
            {overview.upcoming.map((charge) => (
              <li
                key={charge.licenseId}
                data-testid="upcoming-charge"
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm"
              >
                <span className="font-medium">{charge.kind === "retry" ? "Due now" : formatDate(charge.at)}</span>
                <span className="font-medium tabular-nums">{formatMoney(charge.amountCents, charge.currency)}</span>
                <span className="basis-full text-muted-foreground">
                  <span className="font-mono">{charge.licenseShortId}</span>
                  {charge.kind === "first-charge"
                    ? " · first charge after the free trial"
                    : charge.kind === "retry" && charge.retriedUntil
                      ? ` · the failed renewal, retried automatically until ${formatDate(charge.retriedUntil)}`
                      : " · renewal"}
                  {charge.seats ? ` · ${charge.seats} seats` : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </OverviewSection>
      {overview.failed.length > 0 ? (
        <OverviewSection id="failed-payments" title="Failed payments" icon={<AlertTriangle aria-hidden />}>
          <ul className="divide-y">
            {overview.failed.map((attempt) => (
              <li key={attempt.licenseId} data-testid="failed-payment" className="px-4 py-3 text-sm">
                {attempt.text}{" "}
                <Link to="/licenses" className="text-primary underline underline-offset-4">
                  Update the payment method on your licenses page
                </Link>
              </li>
            ))}
          </ul>
        </OverviewSection>
      ) : null}
      {overview.keeps.length > 0 ? (
        <OverviewSection id="kept-versions" title="What you keep" icon={<Archive aria-hidden />}>
          <ul className="divide-y">
            {overview.keeps.map((kept) => (
              <li key={kept.licenseId} data-testid="kept-version" className="px-4 py-3 text-sm">
                <span className="font-mono">{kept.licenseShortId}</span>: {kept.text}
              </li>
            ))}
          </ul>
        </OverviewSection>
      ) : null}
      {overview.refunds.length > 0 ? (
        <OverviewSection id="refunds" title="Refunds" icon={<Undo2 aria-hidden />}>
          <ul className="divide-y">
            {overview.refunds.map((refund) => (
              <li
                key={refund.transactionId}
                data-testid="refund-entry"
                data-state={refund.state}
                className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm"
              >
                <span className="min-w-0 break-words">{refund.text}</span>
                <Badge variant={refund.state === "pending" ? "warning" : "secondary"}>
                  {refund.state === "pending" ? "Pending" : "Done"}
                </Badge>
              </li>
            ))}
          </ul>
        </OverviewSection>
      ) : null}
    </div>
  );
}

function OverviewSection({
  id,
  title,
  icon,
  children,
}: {
  id: string;
  title: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card">
      <h2
        id={id}
        className="flex items-center gap-2 border-b px-4 py-3 font-semibold [&>svg]:size-4 [&>svg]:text-primary"
      >
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}
