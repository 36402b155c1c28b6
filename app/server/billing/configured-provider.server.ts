import { getEnv } from "../env.server";
import { createDemoProvider, type DemoProvider } from "./demo/demo-provider.server";
import { createPaddleProvider } from "./paddle-provider.server";
import type { PaymentProvider } from "./payment-provider.server";
import { receiveWebhook } from "./receive-webhook.server";

let provider: PaymentProvider | undefined;

/** The configured payment provider (PAYMENT_PROVIDER), created on first use. */
export function getPaymentProvider(): PaymentProvider {
  if (!provider) {
    const env = getEnv();
    provider =
      env.PAYMENT_PROVIDER === "paddle"
        ? createPaddleProvider({
            apiKey: env.PADDLE_API_KEY,
            environment: env.PADDLE_ENVIRONMENT,
            webhookSecret: env.PADDLE_WEBHOOK_SECRET,
          })
        : connectDemoProvider({ webhookSecret: env.DEMO_WEBHOOK_SECRET });
  }
  return provider;
}

/** A demo provider whose signed events go through the site's webhook handler, as Paddle's do. */
export function connectDemoProvider(options: Omit<Parameters<typeof createDemoProvider>[0], "deliver">): DemoProvider {
  return createDemoProvider({
    ...options,
    deliver: ({ rawBody, signature }) => receiveWebhook({ rawBody, signature, secret: options.webhookSecret }),
  });
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
