import type * as PaddleSdk from "@paddle/paddle-node-sdk";
import type { CreateTransactionRequestBody, Discount, Paddle } from "@paddle/paddle-node-sdk";
import type { DiscountEntity } from "~/domain/discount-codes";
import { paddlePlanChange } from "./paddle-plan-change.server";
import { paddlePricingPreview } from "./paddle-pricing-preview.server";
import { ProviderError, type PaymentProvider } from "./payment-provider.server";

type PaddleOptions = { apiKey: string | undefined; environment: "sandbox" | "production" };

/**
 * The SDK, loaded by the first Paddle call (`call` below): loading it took 0.4 s of every server start,
 * demo sites included, which never call Paddle (decision 0081).
 */
let sdk: typeof PaddleSdk | undefined;

/** The SDK's client, made on first use (a missing API key fails the call, not the start). */
function lazyClient(options: PaddleOptions): () => Paddle {
  let client: Paddle | undefined;
  return () => {
    if (!options.apiKey) throw new ProviderError("PADDLE_API_KEY is not set");
    if (!sdk) throw new ProviderError("the Paddle SDK is loaded by call() before any client is made");
    client ??= new sdk.Paddle(options.apiKey, {
      environment: options.environment === "production" ? sdk.Environment.production : sdk.Environment.sandbox,
    });
    return client;
  };
}

/** Runs one Paddle call; any failure becomes a ProviderError that names the call. */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    sdk ??= await import("@paddle/paddle-node-sdk");
    return await run();
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ProviderError(`Paddle ${what} failed: ${detail}`, { cause: error });
  }
}

/** An extension's transaction: one non-catalog item at the extension's price, and what it extends. */
function extensionTransaction({
  checkoutId,
  userId,
  licenseId,
  months,
  years,
  amountCents,
  description,
}: Parameters<PaymentProvider["createExtensionCharge"]>[0]): CreateTransactionRequestBody {
  return {
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
  };
}

/** Paddle's discount entity, as the code's rules read it. */
function discountEntity(discount: Discount): DiscountEntity {
  return {
    id: discount.id,
    status: discount.status,
    code: discount.code,
    enabledForCheckout: discount.enabledForCheckout,
    type: discount.type,
    amount: discount.amount,
    currencyCode: discount.currencyCode,
    usageLimit: discount.usageLimit,
    timesUsed: discount.timesUsed,
    restrictTo: discount.restrictTo,
    expiresAt: discount.expiresAt,
  };
}

/** A code's discount: GET /discounts?code= (decision 0073). */
function discountLookup(paddle: () => Paddle): Pick<PaymentProvider, "findDiscount"> {
  return {
    findDiscount: async (code) => {
      // Codes are unique and not case-sensitive; any status, so an archived code says so.
      const found = await call("discount list", () =>
        paddle()
          .discounts.list({ code: [code], perPage: 1 })
          .next(),
      );
      const discount = found.find((d) => d.code?.toUpperCase() === code.toUpperCase());
      return discount ? discountEntity(discount) : null;
    },
  };
}

/** A plan's (or team's) checkout transaction and a team's seat changes. */
function planAndSeats(paddle: () => Paddle): Pick<PaymentProvider, "createPlanCheckout" | "updateSeats"> {
  return {
    createPlanCheckout: async ({ checkoutId, userId, planId, priceId, quantity = 1, teamName, discount }) => {
      // A team's checkout names its seats in the custom data too (the item's quantity is them).
      const team = teamName === undefined ? {} : { kind: "team", team_name: teamName, seats: quantity };
      // The discount the server checked (decision 0073); its code comes back in the webhook's custom data.
      const discounted = discount ? { discount_code: discount.code } : {};
      const transaction = await call("transaction", () =>
        paddle().transactions.create({
          items: [{ priceId, quantity }],
          ...(discount ? { discountId: discount.id } : {}),
          customData: { user_id: userId, plan_type: planId, checkout_id: checkoutId, ...team, ...discounted },
        }),
      );
      return { transactionId: transaction.id };
    },
    updateSeats: async ({ subscriptionId, priceId, quantity, proration }) => {
      await call("seat update", () =>
        paddle().subscriptions.update(subscriptionId, {
          items: [{ priceId, quantity }],
          prorationBillingMode: proration,
        }),
      );
    },
  };
}

/** Paddle Billing through its Node SDK (which calls the API with the global fetch). */
export function createPaddleProvider(options: {
  apiKey: string | undefined;
  environment: "sandbox" | "production";
  webhookSecret: string | undefined;
}): PaymentProvider {
  const paddle = lazyClient(options);
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
    cancelNow: async (subscriptionId) => {
      await call("cancel", () => paddle().subscriptions.cancel(subscriptionId, { effectiveFrom: "immediately" }));
    },
    activateTrial: async (subscriptionId) => {
      const subscription = await call("activate", () => paddle().subscriptions.activate(subscriptionId));
      return { nextBilledAt: subscription.nextBilledAt ?? null };
    },
    applyDiscount: async ({ subscriptionId, discountId }) => {
      await call("discount", () =>
        paddle().subscriptions.update(subscriptionId, {
          discount: { id: discountId, effectiveFrom: "next_billing_period" },
        }),
      );
    },
    removeScheduledCancel: async (subscriptionId) => {
      await call("update", () => paddle().subscriptions.update(subscriptionId, { scheduledChange: null }));
    },
    refund: async ({ transactionId, itemId, amountCents, reason, full }) => {
      // Paddle has no idempotency key: a refund already pending or approved for the transaction is the answer.
      const existing = await call("adjustment list", () =>
        paddle()
          .adjustments.list({
            transactionId: [transactionId],
            action: "refund",
            status: ["pending_approval", "approved"],
          })
          .next(),
      );
      if (existing[0]) return { adjustmentId: existing[0].id };
      if (!full && !itemId) throw new ProviderError(`transaction ${transactionId} has no line item to refund`);
      const adjustment = await call("refund", () =>
        paddle().adjustments.create(
          full
            ? { action: "refund", transactionId, reason, type: "full" }
            : {
                action: "refund",
                transactionId,
                reason,
                type: "partial",
                items: [{ itemId: itemId!, type: "partial", amount: String(amountCents) }],
              },
        ),
      );
      return { adjustmentId: adjustment.id };
    },
    ...planAndSeats(paddle),
    ...paddlePlanChange(paddle, call),
    ...paddlePricingPreview(paddle, call),
    ...discountLookup(paddle),
    createExtensionCharge: async (charge) => {
      const transaction = await call("transaction", () => paddle().transactions.create(extensionTransaction(charge)));
      return { transactionId: transaction.id };
    },
  };
}
