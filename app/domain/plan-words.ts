import { EXTENSION_MONTH_CENTS } from "./extension";
import { formatUsd, getPlan, orList, PLANS, refundAmountCents } from "./plans";
import { refundOfCharge } from "./refund-ledger";

/**
 * The plan table in the sentences of the pricing page, the terms and the refund policy: each names
 * every plan with its price from app/domain/plans.ts, so a plan added or repriced there is said
 * everywhere at once.
 */

/** "Monthly $9, 6 months $49.50 or yearly $90" (the pricing page's description). */
export function planPricesSentence(): string {
  const words = orList(PLANS.map((plan) => `${plan.name.toLowerCase()} ${formatUsd(plan.priceCents)}`));
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "monthly ($9), 6-month ($49.50) or yearly ($90)" (the terms: "… subscriptions"). */
export function planPricesInTerms(): string {
  return orList(PLANS.map((plan) => `${plan.adjective} (${formatUsd(plan.priceCents)})`));
}

/** "$8.55 of a $9 monthly license, $47.03 of a 6-month license and $85.50 of a yearly license". */
export function planRefundExamples(): string {
  const examples = PLANS.map((plan, i) => {
    const price = i === 0 ? `${formatUsd(plan.priceCents)} ` : "";
    return `${formatUsd(refundAmountCents(plan.id))} of a ${price}${plan.adjective} license`;
  });
  return examples.length < 2 ? examples.join("") : `${examples.slice(0, -1).join(", ")} and ${examples.at(-1)}`;
}

/** "a $9 monthly license extended by a month for $9 returns $8.55 + $8.55 = $17.10". */
export function extendedRefundExample(): string {
  const plan = getPlan("monthly");
  const [forPlan, forMonth] = [refundOfCharge(plan.priceCents), refundOfCharge(EXTENSION_MONTH_CENTS)];
  const month = formatUsd(EXTENSION_MONTH_CENTS);
  return `a ${formatUsd(plan.priceCents)} ${plan.adjective} license extended by a month for ${month} returns ${formatUsd(forPlan)} + ${formatUsd(forMonth)} = ${formatUsd(forPlan + forMonth)}`;
}
