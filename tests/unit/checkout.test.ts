import { describe, expect, it } from "vitest";
import { CHECKOUT_ERRORS, fromPaddleEvent, openPlanCheckout, successPath, type CheckoutRequest, type CheckoutSystem } from "~/lib/checkout";

const user = { id: "6f1c1d2e-0000-4000-8000-000000000001", email: "dana@example.com" };
const priceIds = { monthly: "pri_m_trial", "6_months": "pri_6_trial", yearly: "pri_y_trial" };

function readySystem() {
  const opened: CheckoutRequest[] = [];
  const system: CheckoutSystem = { status: "ready", opener: { open: (request) => void opened.push(request) } };
  return { system, opened };
}

describe("opening the checkout for a plan", () => {
  it("opens the overlay with the server's price id, quantity 1, the e-mail, custom data, dark theme and English", () => {
    const { system, opened } = readySystem();
    expect(openPlanCheckout({ system, user, planId: "yearly", priceIds })).toBeNull();
    expect(opened).toEqual([
      {
        items: [{ priceId: "pri_y_trial", quantity: 1 }],
        customer: { email: "dana@example.com" },
        customData: { user_id: user.id, plan_type: "yearly" },
        settings: { displayMode: "overlay", theme: "dark", locale: "en" },
      },
    ]);
  });

  it("the provider's script failed to load → not available", () => {
    expect(openPlanCheckout({ system: { status: "failed" }, user, planId: "monthly", priceIds })).toBe(CHECKOUT_ERRORS.unavailable);
  });

  it("still loading → not ready", () => {
    expect(openPlanCheckout({ system: { status: "loading" }, user, planId: "monthly", priceIds })).toBe(CHECKOUT_ERRORS.notReady);
  });

  it("no user, or a user without an e-mail → user information not available", () => {
    const { system, opened } = readySystem();
    expect(openPlanCheckout({ system, user: null, planId: "monthly", priceIds })).toBe(CHECKOUT_ERRORS.noUser);
    expect(openPlanCheckout({ system, user: { id: user.id, email: "" }, planId: "monthly", priceIds })).toBe(CHECKOUT_ERRORS.noUser);
    expect(opened).toHaveLength(0);
  });

  it("an unknown plan, or a plan without a price id → invalid plan", () => {
    const { system, opened } = readySystem();
    expect(openPlanCheckout({ system, user, planId: "weekly", priceIds })).toBe(CHECKOUT_ERRORS.invalidPlan);
    expect(openPlanCheckout({ system, user, planId: "monthly", priceIds: {} })).toBe(CHECKOUT_ERRORS.invalidPlan);
    expect(opened).toHaveLength(0);
  });

  it("the overlay throws while opening → failed to open", () => {
    const system: CheckoutSystem = {
      status: "ready",
      opener: {
        open: () => {
          throw new Error("boom");
        },
      },
    };
    expect(openPlanCheckout({ system, user, planId: "monthly", priceIds })).toBe(CHECKOUT_ERRORS.openFailed);
  });

  it("has the spec's texts", () => {
    expect(Object.values(CHECKOUT_ERRORS)).toEqual([
      "Failed to initialize payment system. Please refresh the page.",
      "Payment system not available. Please refresh the page.",
      "User information not available. Please refresh the page.",
      "Payment system not ready. Please try again in a moment.",
      "Invalid plan selected.",
      "Failed to open checkout. Please try again.",
    ]);
  });
});

describe("Paddle.js events", () => {
  it("a completed checkout's transaction id is data.transaction_id, not data.id", () => {
    expect(fromPaddleEvent({ name: "checkout.completed", data: { id: "che_01", transaction_id: "txn_01" } })).toEqual({ name: "checkout.completed", transactionId: "txn_01" });
    expect(fromPaddleEvent({ name: "checkout.completed", data: { id: "che_01" } })).toEqual({ name: "checkout.completed", transactionId: null });
  });
  it("closing is reported; events the page does not use are dropped", () => {
    expect(fromPaddleEvent({ name: "checkout.closed", data: {} })).toEqual({ name: "checkout.closed" });
    expect(fromPaddleEvent({ name: "checkout.loaded", data: {} })).toBeNull();
    expect(fromPaddleEvent({ name: "checkout.error", detail: "x" })).toEqual({ name: "checkout.error", detail: "x" });
  });
  it("completed → /success with the transaction id, or no path (a message instead)", () => {
    expect(successPath("txn_01 x")).toBe("/success?transactionId=txn_01%20x");
    expect(successPath(null)).toBeNull();
  });
});
