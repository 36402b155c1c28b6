import { getEnv } from "../env.server";
import { createDemoProvider, type DemoProvider } from "./demo-provider.server";
import { createPaddleProvider } from "./paddle-provider.server";
import type { PaymentProvider } from "./provider.server";

let provider: PaymentProvider | undefined;

/** The configured payment provider (PAYMENT_PROVIDER), created on first use. */
export function getPaymentProvider(): PaymentProvider {
  if (!provider) {
    const env = getEnv();
    provider =
      env.PAYMENT_PROVIDER === "paddle"
        ? createPaddleProvider({ apiKey: env.PADDLE_API_KEY, environment: env.PADDLE_ENVIRONMENT, webhookSecret: env.PADDLE_WEBHOOK_SECRET })
        : createDemoProvider({ webhookSecret: env.DEMO_WEBHOOK_SECRET });
  }
  return provider;
}

/** The demo provider, or null when payments go through Paddle. */
export function getDemoProvider(): DemoProvider | null {
  const current = getPaymentProvider();
  return current.name === "demo" ? (current as DemoProvider) : null;
}

/** For tests: use this provider (or, with undefined, the configured one again). */
export function setPaymentProvider(next: PaymentProvider | undefined): void {
  provider = next;
}
