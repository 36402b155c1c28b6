import { useEffect, useEffectEvent, useState } from "react";
import { useFetcher, useNavigate, useSearchParams } from "react-router";
import { planToOpen } from "~/domain/return-to";
import { teamToOpen } from "~/domain/team-pricing";
import {
  CHECKOUT_ERROR_TITLE,
  openTransactionCheckout,
  planCheckoutProblem,
  successPath,
  type CheckoutEvent,
  type PlanCheckoutAnswer,
  type PlanCheckoutView,
} from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import { useAnswer } from "../use-answer";
import { useRootData } from "../use-root-data";
import { useCheckout } from "./use-checkout";

/**
 * Choosing a plan (for oneself, or for a team with a number of seats): the server creates the
 * checkout, then the demo overlay or (Paddle) a summary before Paddle's overlay; a plan picked
 * before signing in (`?plan=`, with `&seats=` for a team) opens once the checkout can.
 */
export function usePlanCheckout(customer: { id: string; email: string } | null) {
  const config = useRootData()!.publicConfig;
  const signedIn = Boolean(customer);
  const navigate = useNavigate();
  const creator = useFetcher<PlanCheckoutAnswer>();
  const [demoCheckout, setDemoCheckout] = useState<PlanCheckoutView | null>(null);
  const [paddleSummary, setPaddleSummary] = useState<PlanCheckoutView | null>(null);
  // The pricing page's discount code, sent with a personal plan's checkout (decision 0073).
  const [discountCode, setDiscountCode] = useState("");
  const [searchParams, setSearchParams] = useSearchParams();
  const planFromAddress = planToOpen(searchParams);
  const seatsFromAddress = teamToOpen(searchParams)?.seats ?? null;
  const onEvent = (event: CheckoutEvent) => {
    setDemoCheckout(null);
    if (event.name !== "checkout.completed") return; // closing the checkout is silent
    const path = successPath(event.transactionId);
    if (path) navigate(path);
    else
      showToast({
        title: "Payment successful",
        description: "Your license will appear on your licenses page shortly.",
        variant: "success",
      });
  };
  const checkout = useCheckout(config, onEvent);
  const fail = (description: string) => showToast({ title: CHECKOUT_ERROR_TITLE, description, variant: "destructive" });
  const choose = (planId: string, seats: number | null = null) => {
    const problem = planCheckoutProblem({ system: checkout.system, user: customer, planId });
    if (problem) return fail(problem);
    const form: Record<string, string> = { intent: "checkout", plan: planId };
    if (seats !== null) form.seats = String(seats);
    else if (discountCode.trim()) form.discountCode = discountCode.trim();
    // The country whose prices the page shows: the summary quotes the same (decision 0072).
    const country = searchParams.get("country");
    if (country) form.country = country;
    creator.submit(form, { method: "post", action: "/pricing" });
  };
  useAnswer(creator.data, creator.state === "idle", (answer) => {
    if ("error" in answer) return fail(answer.error);
    if (!("checkout" in answer)) return;
    if (config.paymentProvider === "demo") return setDemoCheckout(answer.checkout);
    // Paddle: first what happens next, then Paddle's overlay.
    setPaddleSummary(answer.checkout);
  });
  const openPaddle = (prepared: PlanCheckoutView) => {
    setPaddleSummary(null);
    const problem = openTransactionCheckout(checkout.system, prepared.transactionId, customer?.email ?? null);
    if (problem) fail(problem);
  };
  // A plan picked before registering or logging in (`?plan=`, `&seats=`): its checkout opens once, as
  // soon as the checkout can; the choice then leaves the address, so a reload does not open it again.
  const openPlanFromAddress = useEffectEvent((planId: string, seats: number | null) => {
    setSearchParams(
      (params) => {
        params.delete("plan");
        params.delete("seats");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
    choose(planId, seats);
  });
  const systemStatus = checkout.system.status;
  useEffect(() => {
    if (planFromAddress && signedIn && systemStatus !== "loading")
      openPlanFromAddress(planFromAddress, seatsFromAddress);
  }, [planFromAddress, seatsFromAddress, signedIn, systemStatus]);
  return {
    creator,
    choose,
    demoCheckout,
    paddleSummary,
    setPaddleSummary,
    onEvent,
    openPaddle,
    discountCode,
    setDiscountCode,
  };
}
