import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { DAILY_SERIES, DAILY_SERIES_LABELS, type DayPoint } from "~/domain/admin-overview";

/**
 * The overview's charts (recharts), in their own module so the chart library is downloaded only
 * when the admin overview shows them (React.lazy). Each chart is an image to assistive technology
 * (role="img" with a summary); its figures are in the table next to it.
 */

const COLORS: Record<string, string> = {
  purchases: "var(--color-primary)",
  renewals: "var(--color-success)",
  refunds: "var(--color-warning)",
  revokes: "var(--color-destructive)",
};
const AXIS = { stroke: "var(--color-muted-foreground)", fontSize: 12 };
const TOOLTIP = {
  contentStyle: { background: "var(--color-popover)", border: "1px solid var(--color-border)", borderRadius: 8 },
  labelStyle: { color: "var(--color-foreground)" },
};

export function ActiveByKindChart({ data }: { data: { label: string; count: number }[] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid stroke="var(--color-border)" vertical={false} />
        <XAxis dataKey="label" tick={AXIS} stroke="var(--color-border)" interval={0} />
        <YAxis allowDecimals={false} tick={AXIS} stroke="var(--color-border)" />
        <Tooltip {...TOOLTIP} cursor={{ fill: "var(--color-muted)" }} />
        <Bar dataKey="count" name="Active licenses" fill="var(--color-primary)" radius={[4, 4, 0, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function DailyChart({ days }: { days: DayPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={280}>
      <LineChart data={days} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid stroke="var(--color-border)" vertical={false} />
        <XAxis
          dataKey="day"
          tick={AXIS}
          stroke="var(--color-border)"
          minTickGap={24}
          tickFormatter={(d: string) => d.slice(5)}
        />
        <YAxis allowDecimals={false} tick={AXIS} stroke="var(--color-border)" />
        <Tooltip {...TOOLTIP} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {DAILY_SERIES.map((series) => (
          <Line
            key={series}
            type="linear"
            dataKey={series}
            name={DAILY_SERIES_LABELS[series]}
            stroke={COLORS[series]}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
