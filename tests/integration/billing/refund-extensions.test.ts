import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { extensionPriceCents } from "~/domain/extension";
import { refundIdempotencyKey } from "~/domain/refund-ledger";
import { ActionError } from "~/server/action-error.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { ProviderError, type RefundInput } from "~/server/billing/payment-provider.server";
import { audit_log, demo_billing, job_keys, licenses, payments } from "~/server/db/schema";
import { requestRefund } from "~/server/licenses/request-refund.server";
import { demoExtensionCharge, demoPurchase } from "../../support/checkout";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

/**
 * Decision 0036: a refund within the window covers the plan payment and every extension payment, one
 * provider adjustment per transaction (idempotency key each), all or nothing; approvals settle the
 * license and each payment, and the "Refund processed" e-mail is queued once.
 */
describe.each(testEngines())("refund of a license with its extensions on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  const db = () => app.database.db;
  let n = 0;

  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  beforeEach(() => {
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });

  /** A customer with a monthly license ($9) bought now and `extensions` one-month extensions ($9 each). */
  async function licenseWith(extensions: number) {
    const user = await createUser(db(), `refund-${engine}-${++n}@example.com`);
    const { subscriptionId } = await demoPurchase(db(), demo, user, "monthly");
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId));
    for (let i = 0; i < extensions; i++) {
      const amountCents = extensionPriceCents(1, 0);
      const { transactionId } = await demoExtensionCharge(db(), demo, user, license!.id, { months: 1, amountCents });
      await demo.payExtension(transactionId);
    }
    return { user, license: license! };
  }
  const paymentsOf = (licenseId: string) =>
    db().select().from(payments).where(eq(payments.license_id, licenseId)).orderBy(asc(payments.billed_at));
  const licenseRow = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const adjustmentsOf = async (transactionIds: string[]) =>
    (await db().select().from(demo_billing).where(eq(demo_billing.kind, "adjustment")))
      .map(
        (row) => row.data as { id: string; transaction_id: string; totals: { total: string }; idempotency_key: string },
      )
      .filter((a) => transactionIds.includes(a.transaction_id));
  const refundMails = (licenseId: string) =>
    db()
      .select()
      .from(job_keys)
      .where(like(job_keys.key, `customer-mail:refund-processed:${licenseId}:%`));

  it.each([0, 1, 3])(
    "with %i extensions: one adjustment per charge at 95%%, each approved, one e-mail",
    async (count) => {
      const { user, license } = await licenseWith(count);
      const paid = await paymentsOf(license.id);
      expect(paid).toHaveLength(count + 1);
      const extensionCents = extensionPriceCents(1, 0);
      const { amountCents, lines } = await requestRefund({ user, licenseId: license.id });
      expect(lines.map((l) => [l.transactionId, l.refundCents])).toEqual(
        paid.map((p) => [p.id, Math.ceil((p.amount_cents * 95) / 100)]),
      );
      expect(amountCents).toBe(855 + count * Math.ceil((extensionCents * 95) / 100));
      const adjustments = await adjustmentsOf(paid.map((p) => p.id));
      expect(adjustments).toHaveLength(count + 1);
      for (const p of paid) {
        const adjustment = adjustments.find((a) => a.transaction_id === p.id)!;
        expect(Number(adjustment.totals.total)).toBe(Math.ceil((p.amount_cents * 95) / 100));
        expect(adjustment.idempotency_key).toBe(refundIdempotencyKey(license.id, p.id));
      }
      expect(await licenseRow(license.id)).toMatchObject({ status: "refund_requested" });
      expect((await paymentsOf(license.id)).map((p) => [p.pending_refund_cents, p.refund_request])).toEqual(
        paid.map((p) => [Math.ceil((p.amount_cents * 95) / 100), "requested"]),
      );
      const [audit] = await db().select().from(audit_log).where(eq(audit_log.target_id, license.id));
      expect(audit!.details).toMatchObject({ amount_cents: amountCents, charges: expect.any(Array) });

      for (const adjustment of adjustments) {
        expect(await refundMails(license.id)).toHaveLength(0);
        await demo.settleRefund(adjustment.id, "approved");
      }
      expect(await licenseRow(license.id)).toMatchObject({
        status: "refunded",
        refunded: true,
        refund_amount: amountCents,
        auto_renew: false,
      });
      expect((await paymentsOf(license.id)).map((p) => [p.refunded_cents, p.pending_refund_cents])).toEqual(
        paid.map((p) => [Math.ceil((p.amount_cents * 95) / 100), 0]),
      );
      expect(await refundMails(license.id)).toHaveLength(1);
      await expect(requestRefund({ user, licenseId: license.id })).rejects.toThrow(/refunded already/);
    },
    30_000,
  );

  it("all or nothing: one adjustment refused → nothing refunded or pending, the failure said; a retry makes no second adjustment", async () => {
    const { user, license } = await licenseWith(3);
    const paid = await paymentsOf(license.id);
    const asked: RefundInput[] = [];
    setPaymentProvider({
      ...demo,
      refund: async (input) => {
        asked.push(input);
        if (input.transactionId === paid[2]!.id) throw new ProviderError("card network down");
        return demo.refund(input);
      },
    });
    const failed = await requestRefund({ user, licenseId: license.id }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ActionError);
    expect((failed as ActionError).status).toBe(502);
    expect((failed as ActionError).message).toMatch(
      /^Failed to process refund: .*extension of a Monthly license \(\$9\.00\)/,
    );
    // The two adjustments made before the failure exist at the provider (and their events came), but nothing shows.
    expect(await adjustmentsOf(paid.map((p) => p.id))).toHaveLength(2);
    expect(await licenseRow(license.id)).toMatchObject({ status: "active", refunded: false });
    for (const p of await paymentsOf(license.id)) {
      expect([p.refunded_cents, p.pending_refund_cents]).toEqual([0, 0]);
      expect(p.refund_request).toBe("abandoned");
    }
    expect(await db().select().from(audit_log).where(eq(audit_log.target_id, license.id))).toHaveLength(0);

    // The retry asks for all four again with the same keys: the two made already come back, two are new.
    setPaymentProvider(demo);
    const { lines } = await requestRefund({ user, licenseId: license.id });
    expect(lines).toHaveLength(4);
    const adjustments = await adjustmentsOf(paid.map((p) => p.id));
    expect(adjustments).toHaveLength(4);
    expect(new Set(adjustments.map((a) => a.transaction_id)).size).toBe(4);
    expect(asked.slice(0, 3).map((a) => a.idempotencyKey)).toEqual(lines.slice(0, 3).map((l) => l.idempotencyKey));
    expect(await licenseRow(license.id)).toMatchObject({ status: "refund_requested" });
    // A third request: the license waits for its refund (409), the provider is not asked again.
    await expect(requestRefund({ user, licenseId: license.id })).rejects.toMatchObject({ status: 409 });
    expect(await adjustmentsOf(paid.map((p) => p.id))).toHaveLength(4);
  }, 30_000);

  it("the same idempotency key at the provider answers the same adjustment; a request stuck mid-way is retried without a second", async () => {
    const { user, license } = await licenseWith(1);
    const [plan] = await paymentsOf(license.id);
    const input = {
      transactionId: plan!.id,
      itemId: plan!.item_id,
      amountCents: 855,
      reason: "r",
      idempotencyKey: refundIdempotencyKey(license.id, plan!.id),
    };
    // As if the site stopped after asking the provider: the payment is left "requesting" (its events wait).
    await db().update(payments).set({ refund_request: "requesting" }).where(eq(payments.id, plan!.id));
    const first = await demo.refund(input);
    expect((await demo.refund(input)).adjustmentId).toBe(first.adjustmentId);
    await expect(demo.refund({ ...input, idempotencyKey: "another" })).rejects.toThrow(/already has a refund/);
    expect(await licenseRow(license.id)).toMatchObject({ status: "active" });
    await requestRefund({ user, licenseId: license.id });
    const adjustments = await adjustmentsOf([plan!.id]);
    expect(adjustments.map((a) => a.id)).toEqual([first.adjustmentId]);
    const [after] = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.id, plan!.id), like(payments.refund_adjustment_id, "adj_%")));
    expect(after).toMatchObject({ refund_adjustment_id: first.adjustmentId, pending_refund_cents: 855 });
  }, 30_000);
});
