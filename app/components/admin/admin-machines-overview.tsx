import { MACHINE_OVERVIEW_DAYS, type MachinesOverviewView } from "~/domain/machine-texts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

/**
 * The admin overview's machines (decision 0041): how many are active now and a bar per day of
 * activations over the last 30 days (the numbers are in the bars' labels and the totals line).
 */
export function AdminMachinesOverview({ overview }: { overview: MachinesOverviewView | null }) {
  if (!overview) return null;
  const days = overview.activationsPerDay;
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const highest = Math.max(1, ...days.map((d) => d.count));
  const today = days.at(-1)?.count ?? 0;
  return (
    <Card data-testid="admin-machines-overview">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Machines</h2>
        </CardTitle>
        <CardDescription>Desktop installs activated on licenses.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Active machines</dt>
          <dd data-testid="active-machines">{overview.active}</dd>
          <dt className="text-muted-foreground">Activations today</dt>
          <dd>{today}</dd>
          <dt className="text-muted-foreground">Activations, last {MACHINE_OVERVIEW_DAYS} days</dt>
          <dd>{total}</dd>
        </dl>
        <div
          role="img"
          aria-label={`Activations per day over the last ${MACHINE_OVERVIEW_DAYS} days: ${days.map((d) => `${d.day} ${d.count}`).join(", ")}`}
          className="flex h-24 items-end gap-0.5 border-b border-border"
        >
          {days.map((d) => (
            <div
              key={d.day}
              title={`${d.day}: ${d.count}`}
              className="flex-1 rounded-t-sm bg-primary"
              style={{ height: `${Math.max(2, (d.count / highest) * 100)}%`, opacity: d.count === 0 ? 0.25 : 1 }}
            />
          ))}
        </div>
        <p className="flex justify-between text-xs text-muted-foreground">
          <span>{days[0]?.day}</span>
          <span>{days.at(-1)?.day}</span>
        </p>
      </CardContent>
    </Card>
  );
}
