import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LicenseStateFacts } from "~/domain/license-state";
import { isRefundEligible } from "~/domain/license-status";
import {
  applyRefund,
  coveredPayments,
  planRefund,
  refundConfirmation,
  refundOfCharge,
  refundRefusal,
  type LedgerPayment,
} from "~/domain/refund-ledger";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

const license: LicenseStateFacts & { id: string } = {
  id: "lic-1",
  license_type: "monthly",
  status: "active",
  end_date: at(50),
  is_trial: false,
  trial_ends_at: null,
  auto_renew: true,
  cancellation_requested: false,
  has_subscription: true,
  refunded: false,
  refund_eligible_until: at(10),
};
const with_ = (change: Partial<typeof license>) => ({ ...license, ...change });

const payment = (id: string, kind: LedgerPayment["kind"], days: number, amount = 900): LedgerPayment => ({
  id,
  kind,
  license_type: "monthly",
  amount_cents: amount,
  currency: "USD",
  billed_at: at(days),
  refunded_cents: 0,
});
const plan = payment("txn_plan", "purchase", -4);
const extensions = (n: number) => Array.from({ length: n }, (_, i) => payment(`txn_ext${i}`, "extension", -3 + i));

describe("refundOfCharge: 95% rounded up to the cent", () => {
  it.each([
    [900, 855],
    [4950, 4703],
    [9000, 8550],
    [1, 1],
    [0, 0],
    [101, 96],
  ])("%i cents → %i", (paid, refund) => expect(refundOfCharge(paid)).toBe(refund));
});

describe("planRefund: the plan payment and every extension, each once", () => {
  it.each([0, 1, 3])("a monthly license with %i extensions refunds 95 percent of each charge", (n) => {
    const result = planRefund(license, [plan, ...extensions(n)], NOW);
    if (!result.ok) throw new Error(result.message);
    expect(result.lines.map((l) => [l.transactionId, l.refundCents])).toEqual([
      ["txn_plan", 855],
      ...extensions(n).map((e) => [e.id, 855]),
    ]);
    expect(result.totals).toEqual([{ currency: "USD", paidCents: 900 * (n + 1), refundCents: 855 * (n + 1) }]);
    expect(new Set(result.lines.map((l) => l.idempotencyKey)).size).toBe(n + 1);
    expect(result.lines[0]!.idempotencyKey).toBe("refund:lic-1:txn_plan");
  });

  it("the issue's example: $9 plan and a $9 extension refund $17.10 and list each charge", () => {
    const result = planRefund(license, [plan, ...extensions(1)], NOW);
    if (!result.ok) throw new Error(result.message);
    expect(refundConfirmation(result)).toEqual({
      items: ["Monthly license: paid $9.00, refund $8.55", "Extension of a Monthly license: paid $9.00, refund $8.55"],
      total: "Refund $17.10 of $18.00 (95% of each charge)",
    });
  });

  it("covers the newest plan payment only (an older period was used) and skips free ones", () => {
    const old = payment("txn_old", "purchase", -40);
    const renewal = payment("txn_renewal", "renewal", -5);
    const trialStart = payment("txn_trial", "purchase", -50, 0);
    expect(coveredPayments([old, trialStart, renewal, ...extensions(1)]).map((p) => p.id)).toEqual([
      "txn_renewal",
      "txn_ext0",
    ]);
  });

  it("keeps currencies apart", () => {
    const euro = { ...extensions(1)[0]!, currency: "EUR", amount_cents: 1000 };
    const result = planRefund(license, [plan, euro], NOW);
    expect(result.ok && result.totals).toEqual([
      { currency: "USD", paidCents: 900, refundCents: 855 },
      { currency: "EUR", paidCents: 1000, refundCents: 950 },
    ]);
  });

  it("never lists a transaction a refund already touched", () => {
    const [ext] = extensions(1);
    const result = planRefund(license, [{ ...plan, refunded_cents: 855 }, ext!], NOW);
    expect(result.ok && result.lines.map((l) => l.transactionId)).toEqual(["txn_ext0"]);
    expect(planRefund(license, [{ ...plan, pending_refund_cents: 855 }], NOW)).toMatchObject({
      ok: false,
      reason: "already-refunded",
    });
  });
});

describe("refundRefusal: says why not", () => {
  it.each([
    [
      "window passed",
      with_({ refund_eligible_until: at(-1) }),
      "window-passed",
      "The refund window ended on Jun 14, 2026",
    ],
    [
      "trial",
      with_({ license_type: "trial", is_trial: true, trial_ends_at: at(3), has_subscription: false }),
      "trial",
      "A trial is free",
    ],
    ["plan trial", with_({ is_trial: true, trial_ends_at: at(3) }), "trial", "A trial is free"],
    ["tester", with_({ license_type: "tester", has_subscription: false }), "tester", "Tester licenses are free"],
    ["revoked", with_({ status: "revoked" }), "revoked", "revoked"],
    ["refunded", with_({ status: "refunded", refunded: true }), "refunded", "refunded already"],
    ["refund requested", with_({ status: "refund_requested" }), "refund-requested", "already requested"],
    ["expired", with_({ end_date: at(-1) }), "expired", "expired"],
    ["no window", with_({ refund_eligible_until: null }), "no-window", "not bought here"],
  ])("%s", (_name, facts, reason, words) => {
    const refusal = refundRefusal(facts, NOW);
    expect(refusal?.reason).toBe(reason);
    expect(refusal?.message).toContain(words);
    expect(planRefund(facts, [plan], NOW)).toMatchObject({ ok: false, reason });
  });

  it("nothing paid", () => {
    expect(refundRefusal(license, NOW)).toBeNull();
    expect(planRefund(license, [], NOW)).toMatchObject({ ok: false, reason: "nothing-paid" });
    expect(planRefund(license, [{ ...plan, amount_cents: 0 }], NOW)).toMatchObject({
      ok: false,
      message: "Nothing was paid for this license, so there is nothing to refund.",
    });
  });
});

describe("refund ledger properties", () => {
  const paymentArb = fc.record({
    kind: fc.constantFrom<LedgerPayment["kind"]>("purchase", "renewal", "extension"),
    amount: fc.integer({ min: 0, max: 100_000 }),
    currency: fc.constantFrom("USD", "EUR"),
    day: fc.integer({ min: -60, max: 0 }),
    refunded: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: 0 }),
    pending: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: 0 }),
  });
  const paymentsArb = fc.array(paymentArb, { maxLength: 8 }).map((raw) =>
    raw.map((r, i): LedgerPayment => ({
      id: `txn_${i}`,
      kind: r.kind,
      license_type: "monthly",
      amount_cents: r.amount,
      currency: r.currency,
      billed_at: at(r.day),
      refunded_cents: Math.min(r.refunded, r.amount),
      pending_refund_cents: Math.min(r.pending, r.amount - Math.min(r.refunded, r.amount)),
    })),
  );
  const refundedOf = (p: LedgerPayment) => p.refunded_cents + (p.pending_refund_cents ?? 0);

  it("never gives back more than was paid, never refunds a transaction twice, and is idempotent", () => {
    fc.assert(
      fc.property(paymentsArb, (payments) => {
        const result = planRefund(license, payments, NOW);
        if (!result.ok) return;
        const ids = result.lines.map((l) => l.transactionId);
        expect(new Set(ids).size).toBe(ids.length);
        const after = applyRefund(payments, result.lines);
        for (const currency of ["USD", "EUR"]) {
          const ofCurrency = after.filter((p) => p.currency === currency);
          const paid = ofCurrency.reduce((sum, p) => sum + p.amount_cents, 0);
          expect(ofCurrency.reduce((sum, p) => sum + refundedOf(p), 0)).toBeLessThanOrEqual(paid);
        }
        for (const p of after) expect(refundedOf(p)).toBeLessThanOrEqual(p.amount_cents);
        // Already-touched transactions are unchanged; every refund is 95% of its charge, rounded up.
        for (const [i, p] of payments.entries()) {
          if (ids.includes(p.id)) expect(after[i]!.pending_refund_cents).toBe(refundOfCharge(p.amount_cents));
          else expect(after[i]).toBe(p);
        }
        // Re-applied: nothing changes. Planned again: none of the refunded transactions come back.
        expect(applyRefund(after, result.lines)).toEqual(after);
        const again = planRefund(license, after, NOW);
        if (again.ok) for (const line of again.lines) expect(ids).not.toContain(line.transactionId);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("refundRefusal agrees with isRefundEligible (the server's gate)", () => {
  it("property: no refusal exactly when the license is eligible", () => {
    const offset = fc.integer({ min: -30, max: 30 }).map((d) => at(d));
    fc.assert(
      fc.property(
        fc.record({
          status: fc.constantFrom("active", "revoked", "refund_requested", "refunded"),
          license_type: fc.constantFrom("monthly", "6_months", "yearly", "tester", "trial"),
          end_date: offset,
          is_trial: fc.boolean(),
          trial_ends_at: fc.option(offset, { nil: null }),
          auto_renew: fc.boolean(),
          cancellation_requested: fc.boolean(),
          has_subscription: fc.boolean(),
          refunded: fc.boolean(),
          refund_eligible_until: fc.option(offset, { nil: null }),
          past_due_since: fc.option(offset, { nil: null }),
        }),
        (facts) => {
          expect(refundRefusal(facts, NOW) === null).toBe(isRefundEligible(facts, NOW));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("a trial's first paid charge is named as /billing names it, not a renewal", () => {
  it("the refund's line says 'first payment after the free trial'; a later renewal stays a renewal", () => {
    const trial = payment("txn_trial", "purchase", -40, 0);
    const first = payment("txn_first", "renewal", -33);
    const firstOnly = planRefund(license, [trial, first], NOW);
    expect(firstOnly.ok && firstOnly.lines.map((l) => l.description)).toEqual([
      "Monthly license, first payment after the free trial",
    ]);
    const second = payment("txn_second", "renewal", -3);
    const later = planRefund(license, [trial, first, second], NOW);
    expect(later.ok && later.lines.map((l) => l.description)).toEqual(["Monthly license renewal"]);
  });
});
