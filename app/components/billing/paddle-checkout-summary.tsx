import { getPlan, TRIAL_DAYS } from "~/domain/plans";
import {
  checkoutDiscountLine,
  checkoutMoney,
  checkoutNextStep,
  checkoutPlanLines,
  type PlanCheckoutView,
} from "~/lib/checkout";
import { TrialsStillConvert } from "./trials-still-convert";
import { Button } from "../ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/dialog";

/**
 * Paddle mode: before Paddle's overlay opens, what the server's checkout charges and what happens
 * next (trial: free for 7 days, then the price on a date unless cancelled; otherwise today's
 * amount and the renewal's amount and date). Continue opens the overlay; closing is silent.
 */
export function PaddleCheckoutSummary({
  checkout,
  onContinue,
  onClose,
  trialNotices = [],
}: {
  checkout: PlanCheckoutView | null;
  onContinue: (checkout: PlanCheckoutView) => void;
  onClose: () => void;
  /** The user's running trials, which still convert (TrialsStillConvert). */
  trialNotices?: readonly string[];
}) {
  const plan = checkout ? getPlan(checkout.planId) : null;
  return (
    <Dialog open={Boolean(checkout)} onOpenChange={(open) => !open && onClose()}>
      {checkout && plan ? (
        <DialogContent data-testid="checkout-summary">
          <DialogHeader>
            <DialogTitle>Checkout</DialogTitle>
            <DialogDescription>Paddle, our merchant of record, takes the payment in the next step.</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Plan</dt>
            <dd>{checkoutPlanLines(checkout).plan}</dd>
            <dt className="text-muted-foreground">Price</dt>
            <dd>{checkoutPlanLines(checkout).price}</dd>
            <dt className="text-muted-foreground">{checkout.trial ? "Free trial" : "Due today"}</dt>
            <dd>
              {checkout.trial ? `${TRIAL_DAYS} days; due today: ` : ""}
              {checkoutMoney(checkout, checkout.dueTodayCents)}
            </dd>
            {checkout.discount ? (
              <>
                <dt className="text-muted-foreground">Discount</dt>
                <dd data-testid="checkout-discount">{checkoutDiscountLine(checkout)}</dd>
              </>
            ) : null}
          </dl>
          <p className="text-sm text-muted-foreground" data-testid="checkout-next">
            {checkoutNextStep(checkout)}
          </p>
          {checkout.priceNote ? (
            <p className="text-sm text-muted-foreground" data-testid="checkout-price-note">
              {checkout.priceNote}
            </p>
          ) : null}
          <TrialsStillConvert notices={trialNotices} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="button" onClick={() => onContinue(checkout)}>
              Continue to payment
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
