import { demoPricePreview } from "~/domain/demo-prices";
import type { Database } from "../../db/client.server";
import { getDb } from "../../db/db.server";
import { demoCheckout } from "./demo-checkout.server";
import { demoEventDelivery, type DemoParts } from "./demo-events.server";
import { demoExtensions } from "./demo-extensions.server";
import { demoPastDue } from "./demo-past-due.server";
import { demoPlanChange } from "./demo-plan-change.server";
import { planForPriceId } from "../price-ids.server";
import type { DemoDelivery, DemoProvider } from "./demo-provider-type.server";
import { demoRefunds } from "./demo-refunds.server";
import { demoRenewals } from "./demo-renewals.server";
import { demoSeats } from "./demo-seats.server";
import { demoStore } from "./demo-store.server";
import { demoSubscriptionChanges } from "./demo-subscription-changes.server";
import { demoTrial } from "./demo-trial.server";

/**
 * The demo payment provider: Paddle's part played in the site's own database. It keeps
 * subscriptions, transactions and adjustments in Paddle's shapes (table demo_billing) and
 * announces every change as a Paddle-shaped event, signed with DEMO_WEBHOOK_SECRET and passed
 * through the same verification and handlers as Paddle's webhooks. No card data, no money.
 * Each concern is its own file beside this one; this puts them together.
 */

export type { DemoProvider } from "./demo-provider-type.server";

export function createDemoProvider(options: {
  webhookSecret: string;
  deliver: DemoDelivery;
  /** Pending refunds are approved this long after the request; null leaves them pending. */
  refundApprovalMs?: number | null;
  db?: () => Database;
}): DemoProvider {
  const db = options.db ?? getDb;
  const refundApprovalMs = options.refundApprovalMs === undefined ? 10_000 : options.refundApprovalMs;
  const parts: DemoParts = {
    ...demoStore(db),
    deliver: demoEventDelivery(options.webhookSecret, options.deliver),
    db,
  };

  const provider: DemoProvider = {
    name: "demo",
    webhookSecret: options.webhookSecret,
    ...demoCheckout(parts),
    ...demoRenewals(parts, () => provider),
    ...demoPastDue(parts),
    // The site renders the demo's invoices itself (app/server/billing/invoice-pdf.server.ts).
    invoiceUrl: async () => null,
    ...demoSubscriptionChanges(parts),
    ...demoTrial(parts),
    ...demoRefunds({ ...parts, refundApprovalMs }),
    ...demoExtensions(parts),
    ...demoSeats(parts),
    ...demoPlanChange(parts),
    // The demo's table of prices abroad (app/domain/demo-prices.ts); a price it does not know is left out.
    previewPrices: async ({ priceIds, country }) =>
      demoPricePreview(
        country,
        priceIds.flatMap((priceId) => {
          const plan = planForPriceId(priceId);
          return plan ? [{ priceId, plan }] : [];
        }),
      ),
  };
  return provider;
}
