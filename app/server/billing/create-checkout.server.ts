import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { CountryCode } from "~/domain/countries";
import { addDays, addMonths } from "~/domain/extension";
import { getPlan, PLAN_IDS, priceIdFor, TRIAL_DAYS, type PlanId, type QuotedPrices } from "~/domain/plans";
import {
  discountedCents,
  discountProblem,
  DISCOUNT_ERRORS,
  pricedCountry,
  type DiscountEntity,
} from "~/domain/discount-codes";
import { CHECKOUT_ERRORS, type PlanCheckoutView } from "~/lib/checkout";
import { ActionError } from "../action-error.server";
import { getDb } from "../db/db.server";
import { checkouts, licenses, users, type Checkout } from "../db/schema";
import { getLogger } from "../logger.server";
import { getPaymentProvider } from "./configured-provider.server";
import { localizedPrices } from "./localized-prices.server";
import { configuredPriceIds } from "./price-ids.server";

/** A checkout still being created with the provider this long is taken as abandoned (a crash). */
const CREATING_TIMEOUT_MS = 60_000;

/**
 * In one transaction, on the user's locked row: forgets a creation that never finished, then reuses the
 * same plan's open trial checkout, or records a new checkout with its price (trial or not).
 */
function claimCheckout(userId: string, planId: PlanId, now: Date, discount: CheckedDiscount | null, priced: Priced) {
  const { currency } = priced;
  const plan = getPlan(planId);
  return getDb().transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    // A creation that never finished (the process stopped mid-way) no longer holds the trial.
    await tx
      .update(checkouts)
      .set({ status: "failed", updated_at: now })
      .where(
        and(
          eq(checkouts.user_id, userId),
          eq(checkouts.status, "creating"),
          lt(checkouts.created_at, new Date(now.getTime() - CREATING_TIMEOUT_MS)),
        ),
      );
    const [owned] = await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.user_id, userId)).limit(1);
    const [trialCheckout] = await tx
      .select()
      .from(checkouts)
      .where(
        and(
          eq(checkouts.user_id, userId),
          eq(checkouts.trial, true),
          inArray(checkouts.status, ["creating", "open", "completed"]),
        ),
      );
    // A discount code is bought without the trial: its charge is today's (decision 0073).
    let trial = !owned && !trialCheckout && !discount;
    if (!owned && trialCheckout && trialCheckout.status === "open") {
      // The same plan's trial, priced in the same currency: its transaction is opened again.
      const same = trialCheckout.plan_type === planId && trialCheckout.currency === currency;
      if (!discount && same && trialCheckout.transaction_id) return { reuse: trialCheckout };
      // Another plan's trial, or one priced for another country's currency, was opened and not paid: this one replaces it.
      await tx
        .update(checkouts)
        .set({ status: "superseded", updated_at: now })
        .where(eq(checkouts.id, trialCheckout.id));
      trial = !discount;
    } else if (!owned && trialCheckout?.status === "creating") {
      throw new ActionError(409, CHECKOUT_ERRORS.openFailed);
    }
    const priceId = priceIdFor(planId, { firstTimeBuyer: trial }, configuredPriceIds());
    const [row] = await tx
      .insert(checkouts)
      .values({
        user_id: userId,
        kind: "plan",
        plan_type: planId,
        trial,
        price_id: priceId,
        amount_cents: trial ? 0 : discount ? discountedCents(discount.entity, plan.priceCents) : plan.priceCents,
        currency,
        quoted_prices: priced.quoted,
        created_at: now,
      })
      .returning();
    if (!row) throw new Error("the checkout row was not inserted");
    return { created: row };
  });
}

/** Has the provider create the checkout's transaction; a refusal marks the checkout failed (502). */
async function createWithProvider(
  row: Checkout,
  { userId, email, planId, country }: { userId: string; email: string; planId: PlanId; country: CountryCode | null },
  discount: CheckedDiscount | null,
): Promise<string> {
  try {
    const { transactionId } = await getPaymentProvider().createPlanCheckout({
      checkoutId: row.id,
      userId,
      email,
      planId,
      priceId: row.price_id!,
      trial: row.trial,
      country,
      ...(discount ? { discount: { id: discount.entity.id, code: discount.code } } : {}),
    });
    return transactionId;
  } catch (error) {
    getLogger().error({ err: error, checkout: row.id }, "the provider could not create the checkout");
    await getDb().update(checkouts).set({ status: "failed", updated_at: new Date() }).where(eq(checkouts.id, row.id));
    throw new ActionError(502, CHECKOUT_ERRORS.openFailed);
  }
}

/**
 * Creates the checkout of a plan on the server: the price (and so the 7-day trial) is decided
 * here, for a user who has never had a license and has no other trial checkout. Concurrent
 * attempts are serialized on the user's row, and a partial unique index keeps one live trial
 * checkout per user whatever happens; reopening the same plan's trial reuses its transaction.
 */
export async function createPlanCheckout({
  userId,
  email,
  planId,
  discountCode = null,
  country = null,
  now = new Date(),
}: {
  userId: string;
  email: string;
  planId: PlanId;
  /** A code already in its form (parseDiscountCode), checked with the provider here (decision 0073). */
  discountCode?: string | null;
  /** The country the pricing page priced (decision 0072): the provider's checkout is priced there. */
  country?: CountryCode | null;
  now?: Date;
}): Promise<PlanCheckoutView> {
  const discount = discountCode ? await checkDiscount(discountCode, planId, now) : null;
  const claim = await claimCheckout(userId, planId, now, discount, await chargedPrices(country, discount));

  if ("reuse" in claim && claim.reuse) return view(claim.reuse, now);
  if (!("created" in claim) || !claim.created) throw new Error("unreachable: no checkout claimed");
  const row = claim.created;
  const transactionId = await createWithProvider(row, { userId, email, planId, country }, discount);
  const [opened] = await getDb()
    .update(checkouts)
    .set({ transaction_id: transactionId, status: "open", updated_at: new Date() })
    .where(eq(checkouts.id, row.id))
    .returning();
  return view(opened!, now, discount);
}

type CheckedDiscount = { code: string; entity: DiscountEntity };

/** The currency a checkout charges in, and every plan's price in it as the provider quoted it (null: not quoted). */
type Priced = { currency: string; quoted: QuotedPrices | null };

/**
 * The currency the provider's checkout charges for the country (decision 0072): the page's prices for it
 * (kept per country), US dollars without a country, with a flat discount, or when the provider did not say.
 * Recorded on the checkout, so that a trial checkout reopened from another country is made again, with
 * every plan's price in it (`quoted_prices`), which the license keeps to name its charges in that currency.
 */
async function chargedPrices(country: CountryCode | null, discount: CheckedDiscount | null): Promise<Priced> {
  const priced = pricedCountry(country, discount?.entity);
  if (!priced) return { currency: "USD", quoted: null };
  const { prices, settled } = await localizedPrices({ country: priced, trial: !discount });
  if (!settled) return { currency: "USD", quoted: null };
  const plans = Object.fromEntries(PLAN_IDS.map((id) => [id, prices.plans[id].amountMinor])) as QuotedPrices["plans"];
  return { currency: prices.currency, quoted: { currency: prices.currency, plans } };
}

/**
 * The provider's discount for the code, if it can be used for the plan's regular price now; otherwise
 * a 400 that says why, before anything is recorded. A provider that does not answer is a 502.
 */
async function checkDiscount(code: string, planId: PlanId, now: Date): Promise<CheckedDiscount> {
  let entity: DiscountEntity | null;
  try {
    entity = await getPaymentProvider().findDiscount(code);
  } catch (error) {
    getLogger().error({ err: error, code }, "the provider could not look up a discount code");
    throw new ActionError(502, CHECKOUT_ERRORS.openFailed);
  }
  if (!entity) throw new ActionError(400, DISCOUNT_ERRORS.unknown(code));
  const priceId = priceIdFor(planId, { firstTimeBuyer: false }, configuredPriceIds());
  const problem = discountProblem(entity, { code, priceId, currency: "USD", now });
  if (problem) throw new ActionError(400, problem);
  return { code, entity };
}

function view(row: Checkout, now: Date, discount: CheckedDiscount | null = null): PlanCheckoutView {
  const planId = row.plan_type as PlanId;
  return {
    transactionId: row.transaction_id!,
    planId,
    trial: row.trial,
    dueTodayCents: row.amount_cents,
    priceCents: getPlan(planId).priceCents,
    trialEndsAt: row.trial ? addDays(now, TRIAL_DAYS).toISOString() : null,
    renewsAt: (row.trial ? addDays(now, TRIAL_DAYS) : addMonths(now, getPlan(planId).months)).toISOString(),
    ...(discount
      ? { discount: { code: discount.code, type: discount.entity.type, amount: discount.entity.amount } }
      : {}),
  };
}

/** Records an extension's checkout before the provider's transaction exists; returns its id. */
export async function openExtensionCheckout(input: {
  userId: string;
  licenseId: string;
  months: number;
  amountCents: number;
}): Promise<string> {
  const [row] = await getDb()
    .insert(checkouts)
    .values({
      user_id: input.userId,
      kind: "extension",
      license_id: input.licenseId,
      months: input.months,
      amount_cents: input.amountCents,
    })
    .returning({ id: checkouts.id });
  return row!.id;
}

/** Gives a checkout its provider transaction (or marks it failed when the provider refused). */
export async function settleCheckoutCreation(checkoutId: string, transactionId: string | null): Promise<void> {
  await getDb()
    .update(checkouts)
    .set(
      transactionId
        ? { transaction_id: transactionId, status: "open", updated_at: sql`now()` }
        : { status: "failed", updated_at: sql`now()` },
    )
    .where(eq(checkouts.id, checkoutId));
}
