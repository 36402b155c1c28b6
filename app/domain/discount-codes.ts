/**
 * Discount codes at checkout (decision 0073): the code a buyer types on the pricing page, checked on
 * the server against the provider's discount (Paddle's discount entity, or the demo provider's own
 * table below) before the checkout's transaction is created with it. Pure: the pricing action, the
 * checkout service and both providers read these rules.
 */

/** Paddle's limit for a discount code: letters and numbers only, 1 to 32 of them, not case-sensitive. */
export const DISCOUNT_CODE_MAX = 32;
const CODE_PATTERN = /^[A-Za-z0-9]+$/;

/** A provider's discount, as far as checking a code needs it (Paddle's discount entity, camelCased). */
export interface DiscountEntity {
  id: string;
  /** Paddle marks a discount `expired` or `used` itself once past its date or its uses. */
  status: "active" | "archived" | "expired" | "used";
  code: string | null;
  enabledForCheckout: boolean;
  type: "percentage" | "flat" | "flat_per_seat";
  /** Percent ("10", "12.5") for a percentage; minor units of currencyCode for a flat amount. */
  amount: string;
  currencyCode: string | null;
  usageLimit: number | null;
  timesUsed: number | null;
  /** Price (or product) ids it is limited to; null or empty: any price. */
  restrictTo: readonly string[] | null;
  expiresAt: string | null;
}

export const DISCOUNT_ERRORS = {
  tooLong: `That discount code is too long: codes have at most ${DISCOUNT_CODE_MAX} characters.`,
  badCharacters: "A discount code has letters and numbers only (no spaces or symbols).",
  unknown: (code: string) => `There is no discount code "${code}". Check the spelling and try again.`,
  inactive: (code: string) => `The discount code "${code}" is no longer valid.`,
  expired: (code: string) => `The discount code "${code}" has expired.`,
  usedUp: (code: string) => `The discount code "${code}" has been used as many times as it can be.`,
  otherPlan: (code: string) => `The discount code "${code}" does not apply to this plan.`,
  otherCurrency: (code: string) => `The discount code "${code}" does not apply to prices in this currency.`,
  team: "Discount codes apply to a personal license's checkout, not to a team's.",
} as const;

export type ParsedDiscountCode = { ok: true; code: string | null } | { ok: false; error: string };

/**
 * The form's code: absent or blank is no code; otherwise trimmed and upper-cased (Paddle's codes are
 * not case-sensitive), letters and numbers only, at most 32 of them.
 */
export function parseDiscountCode(raw: unknown): ParsedDiscountCode {
  if (raw === null || raw === undefined) return { ok: true, code: null };
  if (typeof raw !== "string") return { ok: false, error: DISCOUNT_ERRORS.badCharacters };
  const code = raw.trim();
  if (code === "") return { ok: true, code: null };
  if (code.length > DISCOUNT_CODE_MAX) return { ok: false, error: DISCOUNT_ERRORS.tooLong };
  if (!CODE_PATTERN.test(code)) return { ok: false, error: DISCOUNT_ERRORS.badCharacters };
  return { ok: true, code: code.toUpperCase() };
}

/**
 * Why this discount cannot be used for a checkout of this price now, as the buyer reads it; null when
 * it can: active and enabled for checkout, not expired, uses left, limited to nothing or to this price,
 * and a flat amount in the checkout's currency.
 */
export function discountProblem(
  discount: DiscountEntity,
  { code, priceId, currency, now }: { code: string; priceId: string; currency: string; now: Date },
): string | null {
  const expired = discount.expiresAt !== null && new Date(discount.expiresAt).getTime() <= now.getTime();
  if (discount.status === "expired" || expired) return DISCOUNT_ERRORS.expired(code);
  const usedUp = discount.usageLimit !== null && (discount.timesUsed ?? 0) >= discount.usageLimit;
  if (discount.status === "used" || usedUp) return DISCOUNT_ERRORS.usedUp(code);
  if (discount.status !== "active" || !discount.enabledForCheckout) return DISCOUNT_ERRORS.inactive(code);
  if (discount.restrictTo && discount.restrictTo.length > 0 && !discount.restrictTo.includes(priceId))
    return DISCOUNT_ERRORS.otherPlan(code);
  if (discount.type !== "percentage" && discount.currencyCode?.toUpperCase() !== currency.toUpperCase())
    return DISCOUNT_ERRORS.otherCurrency(code);
  return null;
}

/**
 * What a charge of `totalCents` (for `quantity` units) costs with the discount: a percentage of it
 * (rounded to the nearest minor unit), a flat amount, or a flat amount per unit; never below zero.
 */
export function discountedCents(
  discount: Pick<DiscountEntity, "type" | "amount">,
  totalCents: number,
  quantity = 1,
): number {
  const amount = Number(discount.amount);
  if (!Number.isFinite(amount) || amount <= 0) return totalCents;
  const off =
    discount.type === "percentage"
      ? Math.round((totalCents * Math.min(amount, 100)) / 100)
      : discount.type === "flat"
        ? Math.round(amount)
        : Math.round(amount) * quantity;
  return Math.max(0, totalCents - off);
}

/**
 * The country a checkout is priced in (decisions 0072, 0073): the buyer's, unless the discount is a
 * flat amount, which is in its own currency (US dollars): the checkout is then priced and quoted in US
 * dollars. The quote and the demo provider's charge both read this.
 */
export function pricedCountry<C extends string>(
  country: C | null,
  discount: Pick<DiscountEntity, "type"> | null | undefined,
): C | null {
  return discount && discount.type !== "percentage" ? null : country;
}

/** The discount's words on the checkout summary: "20% off" or "$5.00 off". */
export function discountLabel(discount: Pick<DiscountEntity, "type" | "amount">, money: (minor: number) => string) {
  if (discount.type === "percentage") return `${discount.amount}% off`;
  return `${money(Number(discount.amount))} off${discount.type === "flat_per_seat" ? " per seat" : ""}`;
}

/**
 * The demo provider's own codes (docs/payments.md, "Discount codes"): one-time discounts on the first
 * charge, in its US dollars. DEMOEXPIRED and DEMOUSEDUP show the refusals offline.
 */
export const DEMO_DISCOUNTS: readonly DiscountEntity[] = [
  demoDiscount("dsc_demo_welcome20", "WELCOME20", { type: "percentage", amount: "20" }),
  demoDiscount("dsc_demo_save5", "SAVE5", { type: "flat", amount: "500", currencyCode: "USD" }),
  demoDiscount("dsc_demo_expired", "DEMOEXPIRED", {
    type: "percentage",
    amount: "50",
    expiresAt: "2024-01-01T00:00:00Z",
  }),
  demoDiscount("dsc_demo_usedup", "DEMOUSEDUP", { type: "percentage", amount: "50", usageLimit: 1, timesUsed: 1 }),
];

function demoDiscount(id: string, code: string, parts: Partial<DiscountEntity>): DiscountEntity {
  return {
    id,
    code,
    status: "active",
    enabledForCheckout: true,
    type: "percentage",
    amount: "0",
    currencyCode: null,
    usageLimit: null,
    timesUsed: 0,
    restrictTo: null,
    expiresAt: null,
    ...parts,
  };
}
