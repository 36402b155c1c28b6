import { FlaskConical } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { formatUsd, getPlan, isPlanId, TRIAL_DAYS } from "~/domain/plans";
import { CHECKOUT_ERROR_TITLE, type CheckoutEvent, type CheckoutRequest } from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import { Button } from "./ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./ui/dialog";
import { Spinner } from "./ui/spinner";

/** What the pricing action answers to the demo checkout's Pay. */
export type DemoCheckoutResult = { transactionId: string } | { error: string };

/**
 * The demo provider's overlay: says plainly that it is a demo and takes no card data, shows
 * what would be bought, and on Pay has the server record the purchase as Paddle would.
 */
export function DemoCheckoutDialog({
  request,
  trial,
  onFinish,
}: {
  request: CheckoutRequest | null;
  trial: boolean;
  onFinish: (event: CheckoutEvent) => void;
}) {
  const fetcher = useFetcher<DemoCheckoutResult>();
  const paying = fetcher.state !== "idle";
  const item = request && "items" in request ? request : null;
  const planId = item?.customData.plan_type;
  const plan = planId && isPlanId(planId) ? getPlan(planId) : null;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if ("transactionId" in fetcher.data) onFinish({ name: "checkout.completed", transactionId: fetcher.data.transactionId });
    else showToast({ title: CHECKOUT_ERROR_TITLE, description: fetcher.data.error, variant: "destructive" });
    // Only a new answer from the server matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  return (
    <Dialog open={Boolean(plan)} onOpenChange={(open) => !open && !paying && onFinish({ name: "checkout.closed" })}>
      {plan && item ? (
        <DialogContent aria-describedby="demo-checkout-note" data-testid="demo-checkout">
          <DialogHeader>
            <DialogTitle>Checkout</DialogTitle>
            <DialogDescription id="demo-checkout-note" className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-left text-foreground">
              <FlaskConical aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
              This is a demo checkout: it takes no card data and charges nothing. Paying records the purchase as a real
              payment would.
            </DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Plan</dt>
            <dd data-testid="demo-checkout-plan">{plan.name}</dd>
            <dt className="text-muted-foreground">Price</dt>
            <dd>
              {formatUsd(plan.priceCents)} {plan.period}
            </dd>
            {trial ? (
              <>
                <dt className="text-muted-foreground">Free trial</dt>
                <dd>{TRIAL_DAYS} days; due today: {formatUsd(0)}</dd>
              </>
            ) : (
              <>
                <dt className="text-muted-foreground">Due today</dt>
                <dd>{formatUsd(plan.priceCents)}</dd>
              </>
            )}
            <dt className="text-muted-foreground">E-mail</dt>
            <dd className="break-all">{item.customer.email}</dd>
          </dl>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={paying} onClick={() => onFinish({ name: "checkout.closed" })}>
              Cancel
            </Button>
            <Button
              type="button"
              disabled={paying}
              onClick={() => fetcher.submit({ intent: "demo-checkout", plan: plan.id }, { method: "post", action: "/pricing" })}
            >
              {paying ? <Spinner /> : null}
              {paying ? "Processing…" : trial ? "Start free trial" : `Pay ${formatUsd(plan.priceCents)}`}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
