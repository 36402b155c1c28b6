import { FlaskConical } from "~/components/lucide-icons";
import { useAnswer } from "../use-answer";
import { useFetcher } from "react-router";
import { getPlan, TRIAL_DAYS } from "~/domain/plans";
import {
  CHECKOUT_ERROR_TITLE,
  checkoutDiscountLine,
  checkoutMoney,
  checkoutNextStep,
  checkoutPlanLines,
  type CheckoutEvent,
  type PlanCheckoutAnswer,
  type PlanCheckoutView,
} from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import type { BillingDetails } from "~/domain/billing-details";
import { TrialsStillConvert } from "./trials-still-convert";
import { Button } from "../ui/button";
import { DemoBillingFields } from "./demo-billing-fields";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/dialog";
import { Spinner } from "../ui/spinner";

/** What the server will charge: the plan, its price, the trial or what is due today, and who pays. */
function CheckoutSummary({ checkout, email }: { checkout: PlanCheckoutView; email: string }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
      <dt className="text-muted-foreground">Plan</dt>
      <dd data-testid="demo-checkout-plan">{checkoutPlanLines(checkout).plan}</dd>
      <dt className="text-muted-foreground">Price</dt>
      <dd data-testid="demo-checkout-price">{checkoutPlanLines(checkout).price}</dd>
      {checkout.trial ? (
        <>
          <dt className="text-muted-foreground">Free trial</dt>
          <dd>
            {TRIAL_DAYS} days; due today: {checkoutMoney(checkout, checkout.dueTodayCents)}
          </dd>
        </>
      ) : (
        <>
          <dt className="text-muted-foreground">Due today</dt>
          <dd data-testid="demo-checkout-due">{checkoutMoney(checkout, checkout.dueTodayCents)}</dd>
        </>
      )}
      {checkout.discount ? (
        <>
          <dt className="text-muted-foreground">Discount</dt>
          <dd data-testid="checkout-discount">{checkoutDiscountLine(checkout)}</dd>
        </>
      ) : null}
      <dt className="text-muted-foreground">E-mail</dt>
      <dd className="break-all">{email}</dd>
    </dl>
  );
}

/**
 * The demo provider's overlay for a checkout the server created: says plainly that it is a demo
 * and takes no card data, shows what the server will charge and when, and on Pay has the server
 * pay that transaction as Paddle would.
 */
export function DemoCheckoutDialog({
  checkout,
  email,
  billing = null,
  onFinish,
  trialNotices = [],
}: {
  checkout: PlanCheckoutView | null;
  email: string;
  /** The profile's billing details, offered for the invoice. */
  billing?: BillingDetails | null;
  onFinish: (event: CheckoutEvent) => void;
  /** The user's running trials, which still convert (TrialsStillConvert). */
  trialNotices?: readonly string[];
}) {
  const fetcher = useFetcher<PlanCheckoutAnswer>();
  const paying = fetcher.state !== "idle";
  const plan = checkout ? getPlan(checkout.planId) : null;

  useAnswer(fetcher.data, fetcher.state === "idle", (answer) => {
    if ("paid" in answer) onFinish({ name: "checkout.completed", transactionId: answer.paid.transactionId });
    else if ("error" in answer)
      showToast({ title: CHECKOUT_ERROR_TITLE, description: answer.error, variant: "destructive" });
  });

  return (
    <Dialog open={Boolean(checkout)} onOpenChange={(open) => !open && !paying && onFinish({ name: "checkout.closed" })}>
      {checkout && plan ? (
        <DialogContent aria-describedby="demo-checkout-note" data-testid="demo-checkout">
          <DialogHeader>
            <DialogTitle>Checkout</DialogTitle>
            <DialogDescription
              id="demo-checkout-note"
              className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-left text-foreground"
            >
              <FlaskConical aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
              This is a demo checkout: it takes no card data and charges nothing. Paying records the purchase as a real
              payment would.
            </DialogDescription>
          </DialogHeader>
          <CheckoutSummary checkout={checkout} email={email} />
          <p className="text-sm text-muted-foreground" data-testid="demo-checkout-next">
            {checkoutNextStep(checkout)}
          </p>
          {checkout.priceNote ? (
            <p className="text-sm text-muted-foreground" data-testid="checkout-price-note">
              {checkout.priceNote}
            </p>
          ) : null}
          <fetcher.Form id="demo-pay" method="post" action="/pricing">
            <input type="hidden" name="intent" value="demo-pay" />
            <input type="hidden" name="transactionId" value={checkout.transactionId} />
            <DemoBillingFields billing={billing} />
          </fetcher.Form>
          <TrialsStillConvert notices={trialNotices} />
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              disabled={paying}
              onClick={() => onFinish({ name: "checkout.closed" })}
            >
              Cancel
            </Button>
            <Button type="submit" form="demo-pay" disabled={paying}>
              {paying ? <Spinner /> : null}
              {paying
                ? "Processing…"
                : checkout.trial
                  ? "Start free trial"
                  : `Pay ${checkoutMoney(checkout, checkout.dueTodayCents)}`}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
