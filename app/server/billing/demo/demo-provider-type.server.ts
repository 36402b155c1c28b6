import type { PaymentProvider } from "../payment-provider.server";

// The demo provider's face, apart from its body (demo-provider.server.ts) so that the parts it is
// built from (demo-past-due.server.ts) can name it without importing the provider itself.

export interface DemoProvider extends PaymentProvider {
  readonly name: "demo";
  /**
   * The overlay's Pay for a checkout the server created: once only (a concurrent second Pay of the
   * same transaction is refused), a subscription and its first transaction, announced as Paddle would.
   */
  payCheckout(transactionId: string): Promise<{ transactionId: string; subscriptionId: string }>;
  /** Bills the next period (or ends a subscription whose cancellation was scheduled). */
  renew(subscriptionId: string, now?: Date): Promise<RenewOutcome>;
  /**
   * Fails the next renewal's charge, as a declined card would (demo:renew --fail): the renewal
   * transaction is past due and so is the subscription, until a later payment goes through.
   */
  failRenewal(subscriptionId: string, now?: Date): Promise<RenewOutcome>;
  /** Pays a past-due subscription's open renewal (a new payment method, or the next demo:renew). */
  recover(subscriptionId: string, now?: Date): Promise<RenewOutcome>;
  /** Renews every live subscription. */
  renewAll(now?: Date): Promise<RenewOutcome[]>;
  /** Approves or rejects a pending refund, as Paddle's staff would. */
  settleRefund(adjustmentId: string, status: "approved" | "rejected"): Promise<void>;
  /** Extensions are paid at once in the demo (a simulated payment). */
  payExtension(transactionId: string): Promise<void>;
}

export type RenewOutcome =
  | { subscriptionId: string; outcome: "renewed"; transactionId: string; periodEnd: string }
  | { subscriptionId: string; outcome: "canceled" }
  | { subscriptionId: string; outcome: "payment-failed"; transactionId: string }
  | { subscriptionId: string; outcome: "skipped"; reason: string };

/** Where the demo provider sends its signed events (the site's webhook handler); answers like it. */
export type DemoDelivery = (delivery: {
  rawBody: string;
  signature: string;
}) => Promise<{ status: number; body: { message: string } }>;
