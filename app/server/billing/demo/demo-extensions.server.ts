import type { PaddleTransaction } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";
import { demoShapes } from "./demo-shapes.server";

/** The demo's license extensions: a one-off charge, paid at once (a simulated payment). */
export function demoExtensions({
  load,
  save,
  completeReady,
  deliver,
}: DemoParts): Pick<DemoProvider, "createExtensionCharge" | "payExtension"> {
  return {
    async createExtensionCharge({ checkoutId, userId, licenseId, months, years, amountCents }) {
      const txn = {
        ...demoShapes.transaction({
          subscriptionId: null,
          customData: {
            kind: "extension",
            user_id: userId,
            license_id: licenseId,
            months,
            years,
            checkout_id: checkoutId,
          },
          priceId: "pri_demo_extension",
          months: null,
          amountCents,
          period: null,
          origin: "api",
          at: new Date(),
        }),
        status: "ready",
      };
      await save("transaction", txn, null);
      return { transactionId: txn.id };
    },

    async payExtension(transactionId) {
      const txn = await load<PaddleTransaction>(transactionId, "transaction");
      if (txn.status !== "ready") throw new ProviderError(`transaction ${transactionId} is ${txn.status}`);
      const now = new Date();
      const completed = { ...txn, status: "completed", billed_at: now.toISOString(), updated_at: now.toISOString() };
      await completeReady(completed, null);
      await deliver([{ event_type: "transaction.completed", data: completed }], now);
    },
  };
}
