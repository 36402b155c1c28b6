import type { PaymentProvider } from "~/server/billing/payment-provider.server";

type Calls = Partial<Omit<PaymentProvider, "name" | "webhookSecret">>;

/**
 * A payment provider for a test that states the calls it expects: each one given in `calls` does
 * what the test says, every other throws (`fail`, by default "not expected"), so an unexpected call
 * to the provider fails the test. A Paddle provider unless `name` says otherwise.
 */
export function stubPaymentProvider(
  calls: Calls = {},
  {
    name = "paddle",
    webhookSecret = "x",
    fail = () => new Error("not expected"),
  }: { name?: PaymentProvider["name"]; webhookSecret?: string; fail?: () => Error } = {},
): PaymentProvider {
  const refuse = async () => {
    throw fail();
  };
  return {
    name,
    webhookSecret,
    cancelAtPeriodEnd: refuse,
    cancelNow: refuse,
    removeScheduledCancel: refuse,
    activateTrial: refuse,
    refund: refuse,
    createPlanCheckout: refuse,
    findDiscount: refuse,
    createExtensionCharge: refuse,
    updateSeats: refuse,
    previewPlanChange: refuse,
    changePlan: refuse,
    applyDiscount: refuse,
    paymentMethodUpdate: refuse,
    invoiceUrl: refuse,
    previewPrices: refuse,
    ...calls,
  };
}
