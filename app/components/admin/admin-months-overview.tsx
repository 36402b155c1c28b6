import { formatUsdCents } from "~/domain/admin-overview";
import {
  LEAVING_REASON_LABELS,
  MOVEMENT_MONTHS,
  monthLabel,
  MRR_MOVEMENTS,
  MRR_MOVEMENT_LABELS,
  netMovement,
  type MonthsOverview,
} from "~/domain/mrr-movement";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { CardCell, CardRow, CardTable } from "../ui/card-table";

const REASONS = Object.keys(LEAVING_REASON_LABELS) as (keyof typeof LEAVING_REASON_LABELS)[];
const cell = "tabular-nums md:py-1.5 md:text-right";
const right = { className: "text-right" };
/** USD with a minus sign for money going out ("−$9.00"); nothing is "$0.00", never "−$0.00". */
const signedUsd = (cents: number) => (cents < 0 ? `−${formatUsdCents(-cents)}` : formatUsdCents(Math.abs(cents)));
const LOSSES: readonly string[] = ["contraction", "churn"];

function MovementTable({ months }: { months: MonthsOverview["movement"] }) {
  const columns = [
    { label: "Month" },
    ...MRR_MOVEMENTS.map((m) => ({ label: MRR_MOVEMENT_LABELS[m], ...right })),
    { label: "Net", ...right },
  ];
  return (
    <CardTable
      caption="MRR movement per month (USD a month): new subscriptions, plan switches up and down, and renewals that ended"
      captionClassName="pb-2 text-left text-sm text-muted-foreground"
      columns={columns}
    >
      {[...months].reverse().map((point) => (
        <CardRow key={point.month} data-testid={`movement-${point.month}`}>
          <CardCell label="Month" rowHeader className="md:whitespace-nowrap md:py-1.5">
            {monthLabel(point.month)}
          </CardCell>
          {MRR_MOVEMENTS.map((m) => (
            <CardCell key={m} label={MRR_MOVEMENT_LABELS[m]} className={cell}>
              {signedUsd(LOSSES.includes(m) ? -point[m] : point[m])}
            </CardCell>
          ))}
          <CardCell label="Net" className={`${cell} font-medium`}>
            {signedUsd(netMovement(point))}
          </CardCell>
        </CardRow>
      ))}
    </CardTable>
  );
}

function LeavingTable({ months }: { months: MonthsOverview["leaving"] }) {
  const columns = [
    { label: "Month" },
    { label: "Cancelled", ...right },
    ...REASONS.map((r) => ({ label: LEAVING_REASON_LABELS[r], ...right })),
    { label: "Offers taken", ...right },
  ];
  return (
    <CardTable
      caption="Renewals cancelled per month by the reason given, and offers taken of those made"
      captionClassName="pb-2 text-left text-sm text-muted-foreground"
      columns={columns}
    >
      {[...months].reverse().map((point) => (
        <CardRow key={point.month} data-testid={`leaving-${point.month}`}>
          <CardCell label="Month" rowHeader className="md:whitespace-nowrap md:py-1.5">
            {monthLabel(point.month)}
          </CardCell>
          <CardCell label="Cancelled" className={`${cell} font-medium`}>
            {point.cancellations}
          </CardCell>
          {REASONS.map((r) => (
            <CardCell key={r} label={LEAVING_REASON_LABELS[r]} className={cell}>
              {point.byReason[r]}
            </CardCell>
          ))}
          <CardCell label="Offers taken" className={cell}>
            {point.offersTaken} of {point.offersMade}
          </CardCell>
        </CardRow>
      ))}
    </CardTable>
  );
}

/** The overview's last months: where MRR came from and went, and why customers cancelled (decision 0065). */
export function AdminMonthsOverview({ overview }: { overview: MonthsOverview | null }) {
  if (!overview) return null;
  return (
    <Card data-testid="admin-months-overview">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">The last {MOVEMENT_MONTHS} months</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <MovementTable months={overview.movement} />
        <LeavingTable months={overview.leaving} />
      </CardContent>
    </Card>
  );
}
