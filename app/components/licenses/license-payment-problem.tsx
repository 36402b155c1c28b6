import { CreditCard, FlaskConical, AlertTriangle } from "~/components/lucide-icons";
import { useEffect, useRef, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { formatDate } from "~/domain/format-date";
import { isRefundLocked } from "~/domain/license-status";
import { graceEndsAt, PAYMENT_PROBLEM_TEXTS as T, type PaymentMethodAnswer } from "~/domain/past-due";
import { renewalCharge } from "~/domain/renewal-charge";
import { formatPrice } from "~/domain/billing";
import type { LicenseView } from "~/domain/views";
import { CHECKOUT_ERROR_TITLE, openTransactionCheckout, type CheckoutEvent } from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import { Button } from "../ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import { useActionToast } from "../use-action-toast";
import { useAnswer } from "../use-answer";
import { useCheckout } from "../billing/use-checkout";
import { NeedsScript } from "../needs-script";
import { useHydrated } from "../use-hydrated";
import { useRootData } from "../use-root-data";

const ACTION = "/billing/payment-method";

/**
 * A past-due license (decision 0023): the card says the renewal's payment failed, until when the
 * license keeps working, and offers "Update payment method" — Paddle's overlay with the
 * subscription's update-payment-method transaction, or the demo overlay.
 */
export function LicensePaymentProblem({ license, now }: { license: LicenseView; now: Date }) {
  const start = useFetcher<PaymentMethodAnswer>();
  const hydrated = useHydrated();
  const [open, setOpen] = useState<{ transactionId: string; demo: boolean } | null>(null);
  useActionToast(start.state === "idle" ? start.data : null);
  useAnswer(start.data, start.state === "idle", (answer) => {
    if (answer.transactionId) setOpen({ transactionId: answer.transactionId, demo: Boolean(answer.demo) });
  });

  if (!license.past_due_since || license.status === "revoked" || isRefundLocked(license)) return null;
  const graceEnd = graceEndsAt(license);
  const working = graceEnd !== null && graceEnd > now;
  return (
    <div
      role="note"
      data-testid="payment-problem"
      className="flex flex-col gap-3 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-3"
    >
      <p className="flex items-center gap-2 font-medium">
        <AlertTriangle aria-hidden className="size-4 shrink-0 text-[oklch(0.8_0.13_25)]" />
        {T.title}
      </p>
      <p>{working && graceEnd ? T.body(formatDate(graceEnd)) : T.expired}</p>
      {license.has_subscription ? (
        <p className="text-muted-foreground" data-testid="payment-problem-next">
          {T.whileOverdue(working && graceEnd ? formatDate(graceEnd) : null)}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          size="sm"
          disabled={!hydrated || start.state !== "idle"}
          onClick={() => start.submit({ intent: "start", licenseId: license.id }, { method: "post", action: ACTION })}
        >
          {start.state !== "idle" ? <Spinner /> : <CreditCard aria-hidden />} {T.button}
        </Button>
        <NeedsScript />
      </div>
      {open?.demo ? (
        <DemoPaymentMethodDialog license={license} onClose={() => setOpen(null)} />
      ) : open ? (
        <PaddlePaymentMethodOverlay
          key={open.transactionId}
          transactionId={open.transactionId}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </div>
  );
}

/** Paddle.js (loaded only now) opened with the update-payment-method transaction. */
function PaddlePaymentMethodOverlay({ transactionId, onClose }: { transactionId: string; onClose: () => void }) {
  const config = useRootData()!.publicConfig;
  const revalidator = useRevalidator();
  const onEvent = (event: CheckoutEvent) => {
    if (event.name === "checkout.completed") {
      showToast({ title: T.updated, description: "Your payment is being processed.", variant: "success" });
      // Paddle's webhook settles the license; show it once it has.
      setTimeout(() => void revalidator.revalidate(), 3000);
      onClose();
    } else if (event.name === "checkout.closed") onClose();
  };
  const { system } = useCheckout(config, onEvent);
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || system.status === "loading") return;
    opened.current = true;
    const problem = openTransactionCheckout(system, transactionId, null);
    if (problem) {
      showToast({ title: CHECKOUT_ERROR_TITLE, description: problem, variant: "destructive" });
      onClose();
    }
  }, [system, transactionId, onClose]);
  return null;
}

/** The demo provider's overlay: no card data; saving pays the failed renewal as a working card would. */
function DemoPaymentMethodDialog({ license, onClose }: { license: LicenseView; onClose: () => void }) {
  const pay = useFetcher<PaymentMethodAnswer>();
  const paying = pay.state !== "idle";
  // At once, not when idle: the revalidation that follows removes this notice (and the dialog).
  useActionToast(pay.data);
  useAnswer(pay.data, pay.state === "idle", (answer) => {
    if (answer.recovered) onClose();
  });
  // A team's renewal is due for every seat it bills: the one state function's price.
  // In the subscription's currency (decision 0072).
  const dueCharge = renewalCharge(license);
  const due = dueCharge.cents === null ? null : formatPrice(dueCharge.cents, dueCharge.currency);
  return (
    <Dialog open onOpenChange={(next) => !next && !paying && onClose()}>
      <DialogContent aria-describedby="demo-payment-method-note" data-testid="demo-payment-method">
        <DialogHeader>
          <DialogTitle>{T.button}</DialogTitle>
          <DialogDescription
            id="demo-payment-method-note"
            className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-left text-foreground"
          >
            <FlaskConical aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
            This is a demo checkout: it takes no card data and charges nothing. Saving pays the failed renewal as a
            working card would.
          </DialogDescription>
        </DialogHeader>
        {due ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Due now</dt>
            <dd>{due}</dd>
          </dl>
        ) : null}
        <DialogFooter>
          <Button type="button" variant="outline" disabled={paying} onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="button"
            disabled={paying}
            onClick={() =>
              pay.submit({ intent: "demo-pay", licenseId: license.id }, { method: "post", action: ACTION })
            }
          >
            {paying ? <Spinner /> : null}
            {paying ? "Processing…" : due ? `Save and pay ${due}` : "Save and pay"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
