import { useState } from "react";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { formatMoney, isFirstPaidRenewal, paymentDescription } from "~/domain/billing";
import { chargeStatusText } from "~/domain/charge-words";
import type { AdminLicenseView, AdminPaymentView } from "~/domain/admin-user";
import { formatDate } from "~/domain/format-date";
import { STAFF_REFUND_REASON_MAX, staffRefundChoices, staffRefundable } from "~/domain/staff-refund";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/alert-dialog";
import { Button } from "../ui/button";
import { Label } from "../ui/label";
import { useActionToast } from "../use-action-toast";

type RefundFetcher = ReturnType<typeof useFetcher<ActionResult>>;
/** A payment with its license's type, for its description ("Extension of a Monthly license"). */
type RefundablePayment = AdminPaymentView & { license_type?: string; first_paid?: boolean };

/**
 * Support's "Refund a payment" (decision 0036) on a user's admin page: each paid payment not refunded
 * yet, with a dialog to choose the policy amount (95%) or the full amount and give a reason, then a
 * confirmation naming the amount. The server checks it all again (staff-refund.server.ts).
 */
export function AdminRefundPayments({
  payments,
  licenses,
}: {
  payments: AdminPaymentView[];
  licenses: Pick<AdminLicenseView, "id" | "license_type">[];
}) {
  const fetcher = useFetcher<ActionResult>();
  // A refusal is said in the refund's dialog, which stays open with it.
  useActionToast(fetcher.state === "idle" ? fetcher.data : null, { failuresShownHere: true });
  const types = new Map(licenses.map((l) => [l.id, l.license_type]));
  const refundable = payments
    .filter((p) => staffRefundable({ ...p, pending_refund_cents: p.pending_refund_cents ?? 0, refund_request: null }))
    .map((p): RefundablePayment => ({
      ...p,
      license_type: types.get(p.license_id),
      first_paid: isFirstPaidRenewal(
        p,
        payments.filter((q) => q.license_id === p.license_id),
      ),
    }));
  return (
    <section aria-labelledby="user-refunds" className="flex flex-col gap-3" data-testid="admin-refunds">
      <h2 id="user-refunds" className="text-lg font-semibold">
        Refund a payment
      </h2>
      {refundable.length === 0 ? (
        <p className="text-muted-foreground">No payment that can be refunded.</p>
      ) : (
        <ul className="flex flex-col divide-y rounded-lg border text-sm">
          {refundable.map((payment) => (
            <li key={payment.id} className="flex flex-wrap items-center justify-between gap-3 px-3 py-2">
              <span className="min-w-0">
                <span className="font-medium">{describe(payment)}</span>{" "}
                <span className="font-mono text-xs text-muted-foreground">{payment.license_short_id}</span>
                <span className="block text-xs text-muted-foreground">
                  {formatDate(payment.billed_at)} · {chargeStatusText(payment)}{" "}
                  {formatMoney(payment.amount_cents, payment.currency)} ·{" "}
                  <span className="break-all font-mono">{payment.id}</span>
                </span>
              </span>
              <RefundDialog payment={payment} fetcher={fetcher} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const describe = (payment: RefundablePayment) =>
  payment.license_type
    ? paymentDescription({ ...payment, kind: payment.kind as "purchase", license_type: payment.license_type })
    : `${payment.kind.charAt(0).toUpperCase()}${payment.kind.slice(1)}`;

/** Choose the amount and give a reason, then confirm the amount; stays open with the server's answer on failure. */
function RefundDialog({ payment, fetcher }: { payment: RefundablePayment; fetcher: RefundFetcher }) {
  const choices = staffRefundChoices(payment);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(choices[0]!.cents);
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const [closedFor, setClosedFor] = useState<unknown>(null);
  const shown = open && !(result?.ok && closedFor !== result);
  const money = formatMoney(amount, payment.currency);
  const id = `refund-${payment.id}`;
  const failed = result && !result.ok && closedFor !== result ? result.toast?.description : null;
  return (
    <AlertDialog
      open={shown}
      onOpenChange={(next) => {
        setOpen(next);
        setConfirming(false);
        setClosedFor(result ?? null);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          Refund…
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="admin-refund-dialog">
        <fetcher.Form method="post" className="flex flex-col gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>
              {confirming ? `Refund ${money} to the customer?` : `Refund ${describe(payment).toLowerCase()}`}
            </AlertDialogTitle>
            <AlertDialogDescription>
              {confirming
                ? `${money} of the ${formatMoney(payment.amount_cents, payment.currency)} paid on ${formatDate(payment.billed_at)} goes back through the payment provider. License ${payment.license_short_id} stops working once the refund is approved and will not renew. This cannot be undone.`
                : `Paid ${formatMoney(payment.amount_cents, payment.currency)} on ${formatDate(payment.billed_at)} for license ${payment.license_short_id}. Allowed outside the customer's refund window.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <input type="hidden" name="intent" value="refund-payment" />
          <input type="hidden" name="transactionId" value={payment.id} />
          <input type="hidden" name="amountCents" value={amount} />
          <input type="hidden" name="reason" value={reason} />
          <RefundFields
            id={id}
            payment={payment}
            amount={amount}
            setAmount={setAmount}
            reason={reason}
            setReason={setReason}
          />
          {failed ? (
            <p role="alert" className="text-sm text-destructive">
              {failed}
            </p>
          ) : null}
          <AlertDialogFooter>
            <AlertDialogCancel type="button">Keep the payment</AlertDialogCancel>
            {confirming ? (
              // Its own key: React must not turn the Continue button being clicked into this submit button.
              <Button key="submit" type="submit" variant="destructive" disabled={fetcher.state !== "idle"}>
                Refund {money}
              </Button>
            ) : (
              <Button
                key="continue"
                type="button"
                onClick={(event) => {
                  event.preventDefault();
                  setConfirming(true);
                }}
              >
                Continue
              </Button>
            )}
          </AlertDialogFooter>
        </fetcher.Form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The amount (policy or full) and the reason. */
function RefundFields({
  id,
  payment,
  amount,
  setAmount,
  reason,
  setReason,
}: {
  id: string;
  payment: RefundablePayment;
  amount: number;
  setAmount: (cents: number) => void;
  reason: string;
  setReason: (reason: string) => void;
}) {
  const choices = staffRefundChoices(payment);
  return (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Amount</legend>
        {choices.map((choice) => (
          <label key={choice.kind} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-choice`}
              checked={amount === choice.cents}
              onChange={() => setAmount(choice.cents)}
              className="accent-primary"
            />
            {choice.label}: {formatMoney(choice.cents, payment.currency)}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-reason`}>
          Reason (kept in the audit log) <span className="text-xs font-normal text-muted-foreground">required</span>
        </Label>
        <textarea
          id={`${id}-reason`}
          aria-required="true"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={STAFF_REFUND_REASON_MAX}
          rows={3}
          className="rounded-md border border-input bg-transparent px-3 py-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        />
      </div>
    </>
  );
}
