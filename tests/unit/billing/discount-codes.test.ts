import { describe, expect, it } from "vitest";
import {
  DEMO_DISCOUNTS,
  DISCOUNT_CODE_MAX,
  DISCOUNT_ERRORS,
  discountedCents,
  discountLabel,
  discountProblem,
  parseDiscountCode,
  pricedCountry,
  type DiscountEntity,
} from "~/domain/discount-codes";

const base: DiscountEntity = {
  id: "dsc_01",
  status: "active",
  code: "SPRING10",
  enabledForCheckout: true,
  type: "percentage",
  amount: "10",
  currencyCode: null,
  usageLimit: null,
  timesUsed: 0,
  restrictTo: null,
  expiresAt: null,
};
const now = new Date("2026-11-28T12:00:00Z");
const check = (parts: Partial<DiscountEntity>, currency = "USD") =>
  discountProblem({ ...base, ...parts }, { code: "SPRING10", priceId: "pri_monthly", currency, now });

describe("parseDiscountCode", () => {
  it("absent or blank is no code", () => {
    expect(parseDiscountCode(null)).toEqual({ ok: true, code: null });
    expect(parseDiscountCode(undefined)).toEqual({ ok: true, code: null });
    expect(parseDiscountCode("   ")).toEqual({ ok: true, code: null });
  });
  it("trims and upper-cases (Paddle's codes are not case-sensitive)", () => {
    expect(parseDiscountCode("  spring10 ")).toEqual({ ok: true, code: "SPRING10" });
  });
  it("takes exactly 32 letters and numbers, refuses 33", () => {
    expect(parseDiscountCode("A".repeat(DISCOUNT_CODE_MAX))).toEqual({ ok: true, code: "A".repeat(32) });
    expect(parseDiscountCode("A".repeat(DISCOUNT_CODE_MAX + 1))).toEqual({ ok: false, error: DISCOUNT_ERRORS.tooLong });
  });
  it.each(["SPRING-10", "SPRING 10", "spring_10", "ÉTÉ10", "10%", "<b>", "a\u0000b"])("refuses %j", (raw) => {
    expect(parseDiscountCode(raw)).toEqual({ ok: false, error: DISCOUNT_ERRORS.badCharacters });
  });
  it("refuses what is not text", () => {
    expect(parseDiscountCode(42)).toEqual({ ok: false, error: DISCOUNT_ERRORS.badCharacters });
  });
});

describe("discountProblem", () => {
  it("an active percentage code for any price can be used", () => {
    expect(check({})).toBeNull();
  });
  it("archived or not enabled for checkout: no longer valid", () => {
    expect(check({ status: "archived" })).toBe(DISCOUNT_ERRORS.inactive("SPRING10"));
    expect(check({ enabledForCheckout: false })).toBe(DISCOUNT_ERRORS.inactive("SPRING10"));
  });
  it("Paddle's own expired and used statuses say so", () => {
    expect(check({ status: "expired" })).toBe(DISCOUNT_ERRORS.expired("SPRING10"));
    expect(check({ status: "used" })).toBe(DISCOUNT_ERRORS.usedUp("SPRING10"));
  });
  it("expired at or before now; valid until then", () => {
    expect(check({ expiresAt: now.toISOString() })).toBe(DISCOUNT_ERRORS.expired("SPRING10"));
    expect(check({ expiresAt: "2026-11-28T12:00:01Z" })).toBeNull();
  });
  it("used up when its uses reach the limit", () => {
    expect(check({ usageLimit: 3, timesUsed: 3 })).toBe(DISCOUNT_ERRORS.usedUp("SPRING10"));
    expect(check({ usageLimit: 3, timesUsed: 2 })).toBeNull();
    expect(check({ usageLimit: 1, timesUsed: null })).toBeNull();
  });
  it("limited to other prices: does not apply to this plan", () => {
    expect(check({ restrictTo: ["pri_yearly"] })).toBe(DISCOUNT_ERRORS.otherPlan("SPRING10"));
    expect(check({ restrictTo: ["pri_yearly", "pri_monthly"] })).toBeNull();
    expect(check({ restrictTo: [] })).toBeNull();
  });
  it("a flat amount applies in its own currency only", () => {
    expect(check({ type: "flat", amount: "500", currencyCode: "EUR" })).toBe(DISCOUNT_ERRORS.otherCurrency("SPRING10"));
    expect(check({ type: "flat_per_seat", amount: "500", currencyCode: "usd" })).toBeNull();
    expect(check({ type: "percentage" }, "JPY")).toBeNull();
  });
});

describe("discountedCents", () => {
  it("takes a percentage off, rounded to the minor unit", () => {
    expect(discountedCents({ ...base, amount: "20" }, 900)).toBe(720);
    expect(discountedCents({ ...base, amount: "12.5" }, 999)).toBe(874);
    expect(discountedCents({ ...base, amount: "100" }, 900)).toBe(0);
  });
  it("takes a flat amount off, never below zero", () => {
    expect(discountedCents({ ...base, type: "flat", amount: "500" }, 900)).toBe(400);
    expect(discountedCents({ ...base, type: "flat", amount: "5000" }, 900)).toBe(0);
  });
  it("takes a flat amount per seat off", () => {
    expect(discountedCents({ ...base, type: "flat_per_seat", amount: "100" }, 2700, 3)).toBe(2400);
  });
  it("an amount that is not a positive number takes nothing off", () => {
    expect(discountedCents({ ...base, amount: "abc" }, 900)).toBe(900);
    expect(discountedCents({ ...base, amount: "0" }, 900)).toBe(900);
  });
});

describe("discountLabel and the demo's codes", () => {
  const usd = (minor: number) => `$${(minor / 100).toFixed(2)}`;
  it("says the percentage or the amount", () => {
    expect(discountLabel({ type: "percentage", amount: "20" }, usd)).toBe("20% off");
    expect(discountLabel({ type: "flat", amount: "500" }, usd)).toBe("$5.00 off");
    expect(discountLabel({ type: "flat_per_seat", amount: "100" }, usd)).toBe("$1.00 off per seat");
  });
  it("WELCOME20 and SAVE5 can be used; DEMOEXPIRED and DEMOUSEDUP show the refusals", () => {
    const byCode = (code: string) => DEMO_DISCOUNTS.find((d) => d.code === code)!;
    const at = { priceId: "pri_monthly", currency: "USD", now };
    expect(discountProblem(byCode("WELCOME20"), { ...at, code: "WELCOME20" })).toBeNull();
    expect(discountProblem(byCode("SAVE5"), { ...at, code: "SAVE5" })).toBeNull();
    expect(discountProblem(byCode("DEMOEXPIRED"), { ...at, code: "DEMOEXPIRED" })).toBe(
      DISCOUNT_ERRORS.expired("DEMOEXPIRED"),
    );
    expect(discountProblem(byCode("DEMOUSEDUP"), { ...at, code: "DEMOUSEDUP" })).toBe(
      DISCOUNT_ERRORS.usedUp("DEMOUSEDUP"),
    );
    for (const d of DEMO_DISCOUNTS) expect(parseDiscountCode(d.code)).toEqual({ ok: true, code: d.code });
  });
});

describe("pricedCountry: the country a checkout is priced in (decisions 0072, 0073)", () => {
  it("the buyer's without a discount or with a percentage; none (US dollars) with a flat amount, in its own currency", () => {
    expect(pricedCountry("DE", null)).toBe("DE");
    expect(pricedCountry("DE", undefined)).toBe("DE");
    expect(pricedCountry("DE", { type: "percentage" })).toBe("DE");
    expect(pricedCountry("DE", { type: "flat" })).toBeNull();
    expect(pricedCountry("DE", { type: "flat_per_seat" })).toBeNull();
    expect(pricedCountry(null, { type: "percentage" })).toBeNull();
  });
});
