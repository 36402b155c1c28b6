import { Link } from "react-router";
import { EXTENSION_MONTH_CENTS, EXTENSION_YEAR_CENTS } from "~/domain/extension";
import { formatUsd, getPlan } from "~/domain/plans";

/**
 * The extension's prices beside the plans' prices, so $99 for an extra year against $90 for a
 * yearly plan is no surprise: an extension is one payment that adds time to this license; a plan
 * is a new license that renews automatically.
 */
export function ExtensionPriceComparison() {
  const monthly = getPlan("monthly");
  const yearly = getPlan("yearly");
  const rows = [
    { what: "1 month", extension: EXTENSION_MONTH_CENTS, plan: monthly.priceCents, planName: monthly.name },
    { what: "1 year", extension: EXTENSION_YEAR_CENTS, plan: yearly.priceCents, planName: yearly.name },
  ];
  return (
    <section aria-labelledby="extension-prices" className="flex flex-col gap-2 text-sm" data-testid="price-comparison">
      <h2 id="extension-prices" className="font-medium">
        Extension or a plan?
      </h2>
      <table className="w-full text-left">
        <thead className="text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 font-normal">
              Time
            </th>
            <th scope="col" className="py-1 font-normal">
              Extension (once)
            </th>
            <th scope="col" className="py-1 font-normal">
              Plan (renews)
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.what} className="border-t">
              <th scope="row" className="py-1 font-normal">
                {row.what}
              </th>
              <td className="py-1">{formatUsd(row.extension)}</td>
              <td className="py-1">
                {formatUsd(row.plan)} ({row.planName})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-muted-foreground">
        An extension is a one-time payment that adds time to this license (it gets a new key for its new end date) and
        does not renew. A plan is a new license that renews automatically until you cancel; see{" "}
        <Link to="/pricing" className="text-primary underline underline-offset-4">
          pricing
        </Link>
        .
      </p>
    </section>
  );
}
