import { FileDown } from "~/components/lucide-icons";
import {
  BILLING_TEXTS,
  formatMoney,
  hasInvoice,
  paymentDescription,
  paymentStatus,
  type BillingEntryView,
} from "~/domain/billing";
import { chargeStatusText } from "~/domain/charge-words";
import { formatDate } from "~/domain/format-date";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";

const STATUS_VARIANTS = { paid: "success", "partially-refunded": "warning", refunded: "secondary" } as const;

/** Every payment of the signed-in user: date, what it paid for, amount, status and its invoice. */
export function BillingHistory({ entries }: { entries: BillingEntryView[] }) {
  if (entries.length === 0) {
    return (
      <div className="mt-4 flex flex-col items-center gap-2 rounded-xl border border-dashed p-10 text-center">
        <h2 className="text-xl font-semibold">{BILLING_TEXTS.empty}</h2>
        <p className="text-muted-foreground">{BILLING_TEXTS.emptyDetail}</p>
      </div>
    );
  }
  return (
    <div className="mt-4 overflow-hidden rounded-xl border bg-card">
      {/* Below md the rows are grids: the table and its body are blocks, or the table keeps a width of its own and is clipped. */}
      <table className="block w-full text-left text-sm md:table">
        <caption className="sr-only">{BILLING_TEXTS.title}</caption>
        <thead className="hidden border-b text-xs uppercase tracking-wide text-muted-foreground md:table-header-group">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Date
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Paid for
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              <span className="sr-only">Invoice</span>
            </th>
          </tr>
        </thead>
        <tbody className="block md:table-row-group">
          {entries.map((entry) => (
            <BillingRow key={entry.id} entry={entry} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One payment: below md a small grid (date and amount, what it paid for, status and invoice), a table row above. */
function BillingRow({ entry }: { entry: BillingEntryView }) {
  const status = paymentStatus(entry);
  return (
    <tr
      data-testid="billing-entry"
      data-status={status}
      className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 border-b px-4 py-4 last:border-b-0 md:table-row md:p-0"
    >
      <td className="text-muted-foreground md:whitespace-nowrap md:px-4 md:py-3">{formatDate(entry.billed_at)}</td>
      <td className="col-span-2 row-start-2 md:px-4 md:py-3">
        <span className="font-medium">{paymentDescription(entry)}</span>
        <span className="block font-mono text-xs text-muted-foreground">{entry.license_short_id}</span>
      </td>
      <td className="text-right font-medium tabular-nums md:px-4 md:py-3">
        {formatMoney(entry.amount_cents, entry.currency)}
        {entry.refunded_cents > 0 ? (
          <span className="block text-xs font-normal text-muted-foreground">
            {formatMoney(entry.refunded_cents, entry.currency)} refunded
          </span>
        ) : null}
      </td>
      <td className="row-start-3 min-w-0 md:px-4 md:py-3">
        {/* A long status ("Refunded $47.03 (95%)") wraps rather than pushing the invoice out at 390 px. */}
        <Badge variant={STATUS_VARIANTS[status]}>
          <span className="whitespace-normal md:whitespace-nowrap">{chargeStatusText(entry)}</span>
        </Badge>
      </td>
      <td className="row-start-3 text-right md:px-4 md:py-3">
        {hasInvoice(entry) ? (
          <Button asChild variant="outline" size="sm">
            {/* A file (or Paddle's link to it): a document request, not a client-side navigation. */}
            <a href={`/billing/invoices/${entry.id}`} download>
              <FileDown aria-hidden /> {BILLING_TEXTS.download}
            </a>
          </Button>
        ) : (
          <span className="text-xs text-muted-foreground">{BILLING_TEXTS.noInvoice}</span>
        )}
      </td>
    </tr>
  );
}
