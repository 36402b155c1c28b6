import { describe, expect, it } from "vitest";
import {
  CHECKOUT_ERRORS,
  checkoutNextStep,
  checkoutPlanLines,
  fromPaddleEvent,
  openTransactionCheckout,
  planCheckoutProblem,
  successPath,
  type CheckoutRequest,
  type CheckoutSystem,
} from "~/lib/checkout";

const user = { id: "6f1c1d2e-0000-4000-8000-000000000001", email: "dana@example.com" };

function readySystem() {
  const opened: CheckoutRequest[] = [];
  const system: CheckoutSystem = { status: "ready", opener: { open: (request) => void opened.push(request) } };
  return { system, opened };
}

describe("asking the server for a plan's checkout", () => {
  it("a known plan, a ready system and a user → no problem (the server picks the price)", () => {
    const { system } = readySystem();
    expect(planCheckoutProblem({ system, user, planId: "yearly" })).toBeNull();
  });

  it("the provider's script failed to load → not available", () => {
    expect(planCheckoutProblem({ system: { status: "failed" }, user, planId: "monthly" })).toBe(
      CHECKOUT_ERRORS.unavailable,
    );
  });

  it("still loading → not ready", () => {
    expect(planCheckoutProblem({ system: { status: "loading" }, user, planId: "monthly" })).toBe(
      CHECKOUT_ERRORS.notReady,
    );
  });

  it("no user, or a user without an e-mail → user information not available", () => {
    const { system } = readySystem();
    expect(planCheckoutProblem({ system, user: null, planId: "monthly" })).toBe(CHECKOUT_ERRORS.noUser);
    expect(planCheckoutProblem({ system, user: { id: user.id, email: "" }, planId: "monthly" })).toBe(
      CHECKOUT_ERRORS.noUser,
    );
  });

  it("an unknown plan → invalid plan", () => {
    const { system } = readySystem();
    expect(planCheckoutProblem({ system, user, planId: "weekly" })).toBe(CHECKOUT_ERRORS.invalidPlan);
  });
});

describe("opening the overlay with the server's transaction", () => {
  it("opens with the transaction id, the e-mail, dark theme and English — never with items or a price", () => {
    const { system, opened } = readySystem();
    expect(openTransactionCheckout(system, "txn_01", "dana@example.com")).toBeNull();
    expect(opened).toEqual([
      {
        transactionId: "txn_01",
        customer: { email: "dana@example.com" },
        settings: { displayMode: "overlay", theme: "dark", locale: "en" },
      },
    ]);
  });

  it("without an e-mail the checkout asks for it", () => {
    const { system, opened } = readySystem();
    openTransactionCheckout(system, "txn_02", null);
    expect(opened[0]).toEqual({
      transactionId: "txn_02",
      settings: { displayMode: "overlay", theme: "dark", locale: "en" },
    });
  });

  it("not ready or failed → the checkout's texts", () => {
    expect(openTransactionCheckout({ status: "loading" }, "txn_01", null)).toBe(CHECKOUT_ERRORS.notReady);
    expect(openTransactionCheckout({ status: "failed" }, "txn_01", null)).toBe(CHECKOUT_ERRORS.unavailable);
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
    expect(openTransactionCheckout(system, "txn_01", null)).toBe(CHECKOUT_ERRORS.openFailed);
  });

  it("has the checkout's texts", () => {
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
    expect(fromPaddleEvent({ name: "checkout.completed", data: { id: "che_01", transaction_id: "txn_01" } })).toEqual({
      name: "checkout.completed",
      transactionId: "txn_01",
    });
    expect(fromPaddleEvent({ name: "checkout.completed", data: { id: "che_01" } })).toEqual({
      name: "checkout.completed",
      transactionId: null,
    });
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

describe("what happens next, as both checkouts say it", () => {
  const base = {
    transactionId: "txn_1",
    planId: "yearly" as const,
    priceCents: 9000,
    renewsAt: "2026-12-01T10:00:00.000Z",
  };

  it("with the trial: free for 7 days, then the price on the trial's end unless cancelled", () => {
    expect(checkoutNextStep({ ...base, trial: true, dueTodayCents: 0, trialEndsAt: "2026-12-01T10:00:00.000Z" })).toBe(
      "Free for 7 days, then $90 on Dec 1, 2026 unless you cancel.",
    );
  });

  it("without: today's amount, then the renewal's amount and date", () => {
    expect(checkoutNextStep({ ...base, trial: false, dueTodayCents: 9000, trialEndsAt: null })).toBe(
      "$90 today, then $90 per year, next on Dec 1, 2026, until you cancel.",
    );
  });
});

describe("the checkout summary's plan and price lines", () => {
  const base = { transactionId: "txn_1", trial: false, trialEndsAt: null, renewsAt: "2026-12-01T10:00:00.000Z" };

  it("names a team's seats and how its total is made; one person's plan as before", () => {
    expect(
      checkoutPlanLines({
        ...base,
        planId: "monthly",
        priceCents: 2700,
        dueTodayCents: 2700,
        seats: 3,
        unitCents: 900,
      }),
    ).toEqual({ plan: "Monthly, 3 seats", price: "3 seats × $9 = $27 per month" });
    expect(checkoutPlanLines({ ...base, planId: "yearly", priceCents: 9000, dueTodayCents: 9000 })).toEqual({
      plan: "Yearly",
      price: "$90 per year",
    });
  });
});
