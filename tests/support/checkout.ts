import { eq } from "drizzle-orm";
import { getPlan, priceIdFor, type PlanId } from "~/domain/plans";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { configuredPriceIds } from "~/server/billing/price-ids.server";
import type { DatabaseHandle } from "~/server/db/client.server";
import { checkouts } from "~/server/db/schema";

type Db = DatabaseHandle["db"];

/**
 * A demo purchase with the trial decided by the test (not by the user's history): the checkout
 * row the server would record, the provider's transaction for it, then the overlay's Pay.
 */
export async function demoPurchase(
  db: Db,
  demo: DemoProvider,
  user: { id: string; email: string },
  planId: PlanId,
  { trial = false }: { trial?: boolean } = {},
): Promise<{ transactionId: string; subscriptionId: string }> {
  const priceId = priceIdFor(planId, { firstTimeBuyer: trial }, configuredPriceIds());
  const [row] = await db
    .insert(checkouts)
    .values({
      user_id: user.id,
      kind: "plan",
      plan_type: planId,
      trial,
      price_id: priceId,
      amount_cents: trial ? 0 : getPlan(planId).priceCents,
      status: "open",
    })
    .returning();
  const { transactionId } = await demo.createPlanCheckout({
    checkoutId: row!.id,
    userId: user.id,
    email: user.email,
    planId,
    priceId,
    trial,
  });
  await db.update(checkouts).set({ transaction_id: transactionId }).where(eq(checkouts.id, row!.id));
  return demo.payCheckout(transactionId);
}

/** An extension's checkout as the server records it, and the provider's transaction for it. */
export async function demoExtensionCharge(
  db: Db,
  demo: DemoProvider,
  user: { id: string; email: string },
  licenseId: string,
  { months, years = 0, amountCents }: { months: number; years?: number; amountCents: number },
): Promise<{ transactionId: string }> {
  const [row] = await db
    .insert(checkouts)
    .values({
      user_id: user.id,
      kind: "extension",
      license_id: licenseId,
      months: months + 12 * years,
      amount_cents: amountCents,
      status: "open",
    })
    .returning();
  const charge = await demo.createExtensionCharge({
    checkoutId: row!.id,
    userId: user.id,
    email: user.email,
    licenseId,
    months,
    years,
    amountCents,
    description: "extension",
  });
  await db.update(checkouts).set({ transaction_id: charge.transactionId }).where(eq(checkouts.id, row!.id));
  return charge;
}
