import { eq } from "drizzle-orm";
import type { CountryCode } from "~/domain/countries";
import { addMonths } from "~/domain/extension";
import { getPlan, isPlanId, priceIdFor } from "~/domain/plans";
import { defaultTeamName } from "~/domain/team-invitations";
import { isSeatCount, SEAT_ERRORS, seatsTotalCents } from "~/domain/team-seats";
import { CHECKOUT_ERRORS, type PlanCheckoutView } from "~/lib/checkout";
import { ActionError } from "../action-error.server";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { configuredPriceIds } from "../billing/price-ids.server";
import { getDb } from "../db/db.server";
import { checkouts } from "../db/schema";
import { getLogger } from "../logger.server";
import { teamOwnerNames } from "./owner-names.server";

/** A team checkout as the server created it: the plan's view with the seats and the total. */
export type TeamCheckoutView = PlanCheckoutView & { seats: number; unitCents: number; teamName: string };

/**
 * Creates a team's checkout on the server: a plan for `seats` seats (2–100), the regular price (no
 * trial) times the seats, the provider's transaction with items[].quantity = seats and custom data
 * kind "team". Paying it makes the buyer the team's owner (the webhook creates the team).
 */
export async function createTeamCheckout(input: {
  userId: string;
  email: string;
  planId: string;
  seats: number;
  teamName?: string | null;
  /** The country the pricing page priced (decision 0072): the provider's checkout is priced there. */
  country?: CountryCode | null;
  now?: Date;
}): Promise<TeamCheckoutView> {
  const now = input.now ?? new Date();
  if (!isPlanId(input.planId)) throw new ActionError(422, CHECKOUT_ERRORS.invalidPlan);
  if (!isSeatCount(input.seats)) throw new ActionError(422, SEAT_ERRORS.seatCount);
  const planId = input.planId;
  const plan = getPlan(planId);
  const teamName = defaultTeamName(input.teamName, await teamOwnerNames(getDb(), input.userId, input.email));
  const priceId = priceIdFor(planId, { firstTimeBuyer: false }, configuredPriceIds());
  const total = seatsTotalCents(plan.priceCents, input.seats);
  const [row] = await getDb()
    .insert(checkouts)
    .values({
      user_id: input.userId,
      kind: "team",
      plan_type: planId,
      trial: false,
      price_id: priceId,
      quantity: input.seats,
      amount_cents: total,
      created_at: now,
    })
    .returning();
  let transactionId: string;
  try {
    ({ transactionId } = await getPaymentProvider().createPlanCheckout({
      checkoutId: row!.id,
      userId: input.userId,
      email: input.email,
      planId,
      priceId,
      trial: false,
      quantity: input.seats,
      teamName,
      country: input.country ?? null,
    }));
  } catch (error) {
    getLogger().error({ err: error, checkout: row!.id }, "the provider could not create the team checkout");
    await getDb().update(checkouts).set({ status: "failed", updated_at: new Date() }).where(eq(checkouts.id, row!.id));
    throw new ActionError(502, CHECKOUT_ERRORS.openFailed);
  }
  await getDb()
    .update(checkouts)
    .set({ transaction_id: transactionId, status: "open", updated_at: new Date() })
    .where(eq(checkouts.id, row!.id));
  return {
    transactionId,
    planId,
    trial: false,
    dueTodayCents: total,
    priceCents: total,
    trialEndsAt: null,
    renewsAt: addMonths(now, plan.months).toISOString(),
    seats: input.seats,
    unitCents: plan.priceCents,
    teamName,
  };
}
