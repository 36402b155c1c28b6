import type { AdminPaymentView } from "~/domain/admin-user";
import { chargeStatusText } from "~/domain/charge-words";
import { formatMoney } from "~/domain/billing";
import { formatDate } from "~/domain/format-date";
import { Badge } from "../ui/badge";
import { CardCell, CardRow, CardTable } from "../ui/card-table";

const STATUS_TONES = {
  paid: "success",
  failed: "destructive",
  refunded: "secondary",
  "partially-refunded": "warning",
} as const;

const COLUMNS = ["Billed", "Kind", "Amount", "Status", "License", "Transaction", "Invoice"].map((label) => ({
  label,
  className: label === "Amount" ? "text-right" : undefined,
}));

/** The customer's payments, newest first (decision 0038): each with its status and invoice. */
export function AdminUserPayments({ userId, payments }: { userId: string; payments: AdminPaymentView[] }) {
  if (payments.length === 0) return <p className="text-muted-foreground">No payments.</p>;
  return (
    // Below md each payment is a labelled card: nothing scrolls sideways at 390 px.
    <div className="rounded-lg border">
      <CardTable caption="The user's payments, newest first" columns={COLUMNS}>
        {payments.map((payment) => (
          <CardRow key={payment.id} data-testid="admin-payment" data-status={payment.status}>
            <CardCell label="Billed" className="md:whitespace-nowrap">
              {formatDate(payment.billed_at)}
            </CardCell>
            <CardCell label="Kind" className="capitalize">
              {payment.kind}
            </CardCell>
            <CardCell label="Amount" className="tabular-nums md:text-right">
              {formatMoney(payment.amount_cents, payment.currency)}
              {payment.discount_code ? (
                <span className="block text-xs text-muted-foreground" data-testid="admin-payment-discount">
                  with code {payment.discount_code}
                </span>
              ) : null}
            </CardCell>
            <CardCell label="Status">
              {/* The customer's billing history's words ("Refunded $8.55 (95%)"): one wording source. */}
              <Badge variant={STATUS_TONES[payment.status]}>
                {payment.status === "failed"
                  ? "Failed"
                  : payment.dispute_status === "charged_back"
                    ? "Charged back"
                    : chargeStatusText(payment)}
              </Badge>
            </CardCell>
            <CardCell label="License" className="font-mono text-xs">
              <a href={`#license-${payment.license_id}`} className="underline underline-offset-2">
                {payment.license_short_id}
              </a>
            </CardCell>
            <CardCell label="Transaction" className="break-all font-mono text-xs">
              {payment.status === "failed" ? "—" : payment.id}
            </CardCell>
            <CardCell label="Invoice">
              {payment.status !== "failed" && payment.amount_cents > 0 ? (
                <a
                  href={`/admin/users/${userId}/invoices/${encodeURIComponent(payment.id)}`}
                  className="whitespace-nowrap underline underline-offset-2"
                  download
                >
                  Download
                </a>
              ) : (
                <span className="text-muted-foreground">
                  {payment.status === "failed" ? "None (not charged)" : "None (nothing charged)"}
                </span>
              )}
            </CardCell>
          </CardRow>
        ))}
      </CardTable>
    </div>
  );
}
