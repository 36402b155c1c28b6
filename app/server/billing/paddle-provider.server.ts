import { Environment, Paddle } from "@paddle/paddle-node-sdk";
import { ProviderError, type PaymentProvider } from "./payment-provider.server";

/** Paddle Billing through its Node SDK (which calls the API with the global fetch). */
export function createPaddleProvider(options: {
  apiKey: string | undefined;
  environment: "sandbox" | "production";
  webhookSecret: string | undefined;
}): PaymentProvider {
  let client: Paddle | undefined;
  const paddle = () => {
    if (!options.apiKey) throw new ProviderError("PADDLE_API_KEY is not set");
    client ??= new Paddle(options.apiKey, {
      environment: options.environment === "production" ? Environment.production : Environment.sandbox,
    });
    return client;
  };
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new ProviderError(`Paddle ${what} failed: ${detail}`, { cause: error });
    }
  };
  return {
    name: "paddle",
    paymentMethodUpdate: async (subscriptionId) => {
      const transaction = await call("update-payment-method transaction", () =>
        paddle().subscriptions.getPaymentMethodChangeTransaction(subscriptionId),
      );
      return { transactionId: transaction.id };
    },
    invoiceUrl: async (transactionId) => {
      const invoice = await call("invoice", () =>
        paddle().transactions.getInvoicePDF(transactionId, { disposition: "attachment" }),
      );
      return invoice.url;
    },
    webhookSecret: options.webhookSecret,
    cancelAtPeriodEnd: async (subscriptionId) => {
      await call("cancel", () =>
        paddle().subscriptions.cancel(subscriptionId, { effectiveFrom: "next_billing_period" }),
      );
    },
    removeScheduledCancel: async (subscriptionId) => {
      await call("update", () => paddle().subscriptions.update(subscriptionId, { scheduledChange: null }));
    },
    refund: async ({ transactionId, itemId, amountCents, reason }) => {
      if (!itemId) throw new ProviderError(`transaction ${transactionId} has no line item to refund`);
      const adjustment = await call("refund", () =>
        paddle().adjustments.create({
          action: "refund",
          transactionId,
          reason,
          type: "partial",
          items: [{ itemId, type: "partial", amount: String(amountCents) }],
        }),
      );
      return { adjustmentId: adjustment.id };
    },
    createPlanCheckout: async ({ checkoutId, userId, planId, priceId }) => {
      const transaction = await call("transaction", () =>
        paddle().transactions.create({
          items: [{ priceId, quantity: 1 }],
          customData: { user_id: userId, plan_type: planId, checkout_id: checkoutId },
        }),
      );
      return { transactionId: transaction.id };
    },
    createExtensionCharge: async ({ checkoutId, userId, licenseId, months, years, amountCents, description }) => {
      const transaction = await call("transaction", () =>
        paddle().transactions.create({
          items: [
            {
              quantity: 1,
              price: {
                description,
                name: description,
                unitPrice: { amount: String(amountCents), currencyCode: "USD" },
                product: { name: "License extension", taxCategory: "standard" },
              },
            },
          ],
          customData: {
            kind: "extension",
            user_id: userId,
            license_id: licenseId,
            months,
            years,
            checkout_id: checkoutId,
          },
        }),
      );
      return { transactionId: transaction.id };
    },
  };
}
