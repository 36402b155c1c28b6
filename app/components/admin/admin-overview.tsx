import { lazy, Suspense } from "react";
import {
  CONVERSION_DAYS,
  DAILY_SERIES,
  DAILY_SERIES_LABELS,
  formatUsdCents,
  OVERVIEW_DAYS,
  type OverviewView,
} from "~/domain/admin-overview";
import { getPlan, isPlanId } from "~/domain/plans";
import { FormMessage } from "../form-field";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { CardCell, CardRow, CardTable } from "../ui/card-table";
import { useHydrated } from "../use-hydrated";

// The chart library is loaded only here, in the browser, when the overview is shown.
const ActiveByKindChart = lazy(() => import("./admin-overview-charts").then((m) => ({ default: m.ActiveByKindChart })));
const DailyChart = lazy(() => import("./admin-overview-charts").then((m) => ({ default: m.DailyChart })));

const DAILY_COLUMNS = [
  { label: "Day (UTC)" },
  ...DAILY_SERIES.map((s) => ({ label: DAILY_SERIES_LABELS[s], className: "text-right" })),
];

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-lg border bg-card p-4" data-testid="overview-stat">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
      {note ? <dd className="mt-1 text-xs text-muted-foreground">{note}</dd> : null}
    </div>
  );
}

/** A chart (an image with a summary) once the page runs in the browser; its table is always there. */
function ChartFigure({ summary, children }: { summary: string; children: React.ReactNode }) {
  const hydrated = useHydrated();
  return (
    <div role="img" aria-label={summary} data-testid="overview-chart" className="h-[240px] sm:h-[280px]">
      {hydrated ? <Suspense fallback={null}>{children}</Suspense> : null}
    </div>
  );
}

const th = "px-3 py-2 font-medium";
const td = "px-3 py-1.5 tabular-nums";

function OverviewStats({ o }: { o: OverviewView }) {
  const rate = o.refundRatePercent === null ? "—" : `${o.refundRatePercent.toFixed(1)} %`;
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
      <Stat label="Active licenses" value={o.activeTotal.toLocaleString("en-US")} />
      <Stat
        label="Monthly recurring revenue"
        value={formatUsdCents(o.mrrCents)}
        note="from the renewing subscriptions"
      />
      <Stat label="Trials running" value={o.trialsRunning.toLocaleString("en-US")} />
      <Stat
        label={`Trials converted, last ${CONVERSION_DAYS} days`}
        value={o.trialsConverted.toLocaleString("en-US")}
        note={`of ${o.trialsEnded.toLocaleString("en-US")} trials that ended`}
      />
      <Stat
        label={`Refund rate, last ${OVERVIEW_DAYS} days`}
        value={rate}
        note="refunds per paid purchase or renewal"
      />
      <Stat
        label={`New purchases, last ${OVERVIEW_DAYS} days`}
        value={o.totals.purchases.toLocaleString("en-US")}
        note={`${o.totals.renewals.toLocaleString("en-US")} renewals`}
      />
      <Stat
        label={`Chargebacks, last ${OVERVIEW_DAYS} days`}
        value={o.disputes.chargedBack.toLocaleString("en-US")}
        note={`${o.disputes.warnings.toLocaleString("en-US")} disputes coming, ${o.disputes.reversed.toLocaleString("en-US")} reversed`}
      />
    </dl>
  );
}

function ActiveByKindTable({ o }: { o: OverviewView }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="pb-2 text-left text-muted-foreground">Active licenses by type</caption>
      <thead className="bg-muted/50 text-muted-foreground">
        <tr>
          <th scope="col" className={th}>
            Type
          </th>
          <th scope="col" className={`${th} text-right`}>
            Active
          </th>
        </tr>
      </thead>
      <tbody>
        {o.activeByKind.map((k) => (
          <tr key={k.kind} className="border-t" data-testid={`active-${k.kind}`}>
            <th scope="row" className="px-3 py-1.5 font-normal">
              {k.label}
            </th>
            <td className={`${td} text-right`}>{k.count.toLocaleString("en-US")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RevenueByPlanTable({ o }: { o: OverviewView }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="pb-2 text-left text-muted-foreground">Monthly recurring revenue by plan</caption>
      <thead className="bg-muted/50 text-muted-foreground">
        <tr>
          <th scope="col" className={th}>
            Plan
          </th>
          <th scope="col" className={`${th} text-right`}>
            Renewing
          </th>
          <th scope="col" className={`${th} text-right`}>
            Per month
          </th>
        </tr>
      </thead>
      <tbody>
        {o.renewingByPlan.map((p) => {
          const plan = isPlanId(p.plan) ? getPlan(p.plan) : null;
          const cents = plan ? (plan.priceCents * p.count) / plan.months : 0;
          return (
            <tr key={p.plan} className="border-t">
              <th scope="row" className="px-3 py-1.5 font-normal">
                {p.label}
              </th>
              <td className={`${td} text-right`}>{p.count.toLocaleString("en-US")}</td>
              <td className={`${td} text-right`}>{formatUsdCents(Math.round(cents))}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function ActiveByKindCard({ o }: { o: OverviewView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Active licenses by type</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-2">
        <ChartFigure
          summary={`Bar chart of active licenses by type: ${o.activeByKind.map((k) => `${k.label} ${k.count}`).join(", ")}.`}
        >
          <ActiveByKindChart data={o.activeByKind} />
        </ChartFigure>
        <div className="flex flex-col gap-4">
          <ActiveByKindTable o={o} />
          <RevenueByPlanTable o={o} />
        </div>
      </CardContent>
    </Card>
  );
}

function LastDaysCard({ o, dailySummary }: { o: OverviewView; dailySummary: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">The last {OVERVIEW_DAYS} days</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ChartFigure summary={`Line chart per day. ${dailySummary}`}>
          <DailyChart days={o.days} />
        </ChartFigure>
        <p className="text-sm text-muted-foreground">{dailySummary}</p>
        <details className="rounded-lg border">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium">Show the figures per day</summary>
          {/* Below md each day is a labelled card: five columns do not fit 390 px. */}
          <CardTable
            caption="Purchases, renewals, refunds and revokes per day (UTC)"
            columns={DAILY_COLUMNS}
            headClassName="bg-muted text-muted-foreground"
          >
            {[...o.days].reverse().map((day) => (
              <CardRow key={day.day}>
                <CardCell label="Day (UTC)" rowHeader className="md:whitespace-nowrap md:py-1.5">
                  {day.day}
                </CardCell>
                {DAILY_SERIES.map((s) => (
                  <CardCell key={s} label={DAILY_SERIES_LABELS[s]} className="tabular-nums md:py-1.5 md:text-right">
                    {day[s]}
                  </CardCell>
                ))}
              </CardRow>
            ))}
          </CardTable>
        </details>
      </CardContent>
    </Card>
  );
}

/** Overview page (/admin): how the business is doing, in numbers, charts and their tables. */
export function AdminOverview({ overview, error }: { overview: OverviewView | null; error: string | null }) {
  if (error || !overview) return <FormMessage>{error ?? "Failed to load the overview"}</FormMessage>;
  const o = overview;
  const busiest = [...o.days].sort((a, b) => b.purchases + b.renewals - (a.purchases + a.renewals))[0];
  const dailySummary =
    `Over the last ${OVERVIEW_DAYS} days: ` +
    DAILY_SERIES.map((s) => `${o.totals[s]} ${DAILY_SERIES_LABELS[s].toLowerCase()}`).join(", ") +
    (busiest && busiest.purchases + busiest.renewals > 0 ? `; busiest day ${busiest.day}.` : ".");
  return (
    <div className="flex flex-col gap-6" data-testid="admin-overview">
      <OverviewStats o={o} />
      <ActiveByKindCard o={o} />
      <LastDaysCard o={o} dailySummary={dailySummary} />
    </div>
  );
}
