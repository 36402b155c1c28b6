import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { STAFF_REFUND_TEXTS } from "~/domain/staff-refund";
import * as userRoute from "~/routes/admin/user";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { RefundInput } from "~/server/billing/payment-provider.server";
import { audit_log, job_keys, licenses, payments } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../../support/admin-app";
import { throughAdminGuard } from "../../support/admin-route";
import { demoExtensionCharge, demoPurchase } from "../../support/checkout";
import { call, formRequest } from "../../support/route-call";
import { createUser, testEngines, type TestApp } from "../../support/test-app";

const DAY = 86_400_000;

/**
 * Support refunds one of a customer's payments from /admin/users/:id. The provider is
 * asked for one adjustment (partial at 95%, or full), the license goes the way the customer's own
 * refund takes it, the e-mail follows the approval, the audit entry keeps the reason; bad input is
 * a 4xx with nothing changed. The admin guard re-reads role and two-factor for every post.
 */
describe.each(testEngines())("staff refund on %s", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let userCookie: string;
  let demo: DemoProvider;
  let asked: RefundInput[];
  let n = 0;
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  beforeEach(() => {
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    asked = [];
    setPaymentProvider({ ...demo, refund: async (input) => (asked.push(input), demo.refund(input)) });
  });

  const db = () => app.database.db;
  const postUser = (userId: string, fields: Record<string, string>, cookie = adminCookie) =>
    call(() => throughAdminGuard(userRoute.action, formRequest(`/admin/users/${userId}`, fields, cookie), { userId }));
  const refund = (userId: string, fields: Record<string, string>, cookie?: string) =>
    postUser(userId, { intent: "refund-payment", ...fields }, cookie);
  /** A customer with a monthly license bought 20 days ago (outside the 14-day window) and a $9 extension. */
  async function customer() {
    const user = await createUser(db(), `staff-refund-${engine}-${++n}@example.com`);
    const { subscriptionId, transactionId } = await demoPurchase(db(), demo, user, "monthly");
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId));
    const { transactionId: extension } = await demoExtensionCharge(db(), demo, user, license!.id, {
      months: 1,
      amountCents: 900,
    });
    await demo.payExtension(extension);
    await db()
      .update(licenses)
      .set({ refund_eligible_until: new Date(Date.now() - 6 * DAY) })
      .where(eq(licenses.id, license!.id));
    return { user, license: license!, transactionId, extension };
  }
  const payment = async (id: string) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
  const licenseRow = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const staffAudits = (licenseId: string) =>
    db()
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.target_id, licenseId), eq(audit_log.action, "refund.staff")));

  it("the policy amount on day 20: one partial adjustment, the license waits for it, audited with the reason; approval refunds and e-mails", async () => {
    const { user, license, transactionId } = await customer();
    const result = await refund(user.id, { transactionId, amountCents: "855", reason: "Asked on day 20, goodwill" });
    expect(result.status).toBe(200);
    expect(result.data.toast).toMatchObject({
      title: "Refund requested",
      description: expect.stringContaining("$8.55"),
    });
    expect(asked).toEqual([
      expect.objectContaining({
        transactionId,
        amountCents: 855,
        full: false,
        idempotencyKey: `refund:${license.id}:${transactionId}`,
      }),
    ]);
    expect(asked[0]!.reason).toContain("Asked on day 20, goodwill");
    expect(await licenseRow(license.id)).toMatchObject({ status: "refund_requested" });
    expect(await payment(transactionId)).toMatchObject({ pending_refund_cents: 855, refund_request: "requested" });
    const [entry] = await staffAudits(license.id);
    expect(entry).toMatchObject({ actor_email: DEMO_ACCOUNTS[0].email });
    expect(entry!.details).toMatchObject({
      reason: "Asked on day 20, goodwill",
      amount_cents: 855,
      transaction_id: transactionId,
    });

    await demo.settleRefund((await payment(transactionId)).refund_adjustment_id!, "approved");
    expect(await licenseRow(license.id)).toMatchObject({ status: "refunded", refunded: true, refund_amount: 855 });
    expect(await payment(transactionId)).toMatchObject({ refunded_cents: 855, pending_refund_cents: 0 });
    const mails = await db()
      .select()
      .from(job_keys)
      .where(like(job_keys.key, `customer-mail:refund-processed:${license.id}:%`));
    expect(mails).toHaveLength(1);
  }, 30_000);

  it("the full amount of an extension: a full adjustment", async () => {
    const { user, license, extension } = await customer();
    const result = await refund(user.id, { transactionId: extension, amountCents: "900", reason: "Charged twice" });
    expect(result.status).toBe(200);
    expect(asked).toEqual([expect.objectContaining({ transactionId: extension, amountCents: 900, full: true })]);
    expect(await payment(extension)).toMatchObject({ pending_refund_cents: 900 });
    expect(await licenseRow(license.id)).toMatchObject({ status: "refund_requested" });
  }, 30_000);

  it("bad input: an empty reason, more than was paid, a second refund, another user's payment → 4xx, nothing changed", async () => {
    const { user, license, transactionId } = await customer();
    const other = await customer();
    const cases: [Record<string, string>, number, string][] = [
      [{ transactionId, amountCents: "855", reason: "   " }, 400, STAFF_REFUND_TEXTS.reasonRequired],
      [{ transactionId, amountCents: "901", reason: "x" }, 400, STAFF_REFUND_TEXTS.tooMuch("$9.00")],
      [{ transactionId, amountCents: "-5", reason: "x" }, 400, STAFF_REFUND_TEXTS.badAmount],
      [{ transactionId: other.transactionId, amountCents: "855", reason: "x" }, 404, STAFF_REFUND_TEXTS.unknownPayment],
      [{ transactionId: "not-a-txn", amountCents: "855", reason: "x" }, 404, STAFF_REFUND_TEXTS.unknownPayment],
    ];
    for (const [fields, status, message] of cases) {
      const result = await refund(user.id, fields);
      expect(result.status, JSON.stringify(fields)).toBe(status);
      expect(result.data.toast.description).toBe(message);
    }
    expect(asked).toHaveLength(0);
    expect(await licenseRow(license.id)).toMatchObject({ status: "active" });
    expect(await staffAudits(license.id)).toHaveLength(0);

    expect((await refund(user.id, { transactionId, amountCents: "855", reason: "first" })).status).toBe(200);
    const second = await refund(user.id, { transactionId, amountCents: "855", reason: "again" });
    expect(second.status).toBe(409);
    expect(second.data.toast.description).toBe(STAFF_REFUND_TEXTS.alreadyRefunded);
    expect(asked).toHaveLength(1);
    expect(await staffAudits(license.id)).toHaveLength(1);
  }, 30_000);

  it("only an admin with two-factor gets through: a customer's post is refused and nothing is asked", async () => {
    const { user, transactionId } = await customer();
    const refused = await refund(user.id, { transactionId, amountCents: "855", reason: "x" }, userCookie);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(asked).toHaveLength(0);
  }, 30_000);
});
