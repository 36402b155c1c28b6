import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditActionLabel } from "~/domain/admin-audit";
import { paymentDescription } from "~/domain/billing";
import { PLAN_SWITCH_INPUT_ERRORS, PLAN_SWITCH_REFUSALS } from "~/domain/plan-switch";
import { PLAN_SWITCH_TEXTS } from "~/domain/plan-switch-texts";
import { USER_EVENT_LABELS } from "~/domain/user-timeline";
import * as licensesRoute from "~/routes/licenses";
import * as planPage from "~/routes/licenses.plan";
import { getOwnPayment, listBillingHistory } from "~/server/billing/billing-history.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { buildInvoice } from "~/server/billing/invoice.server";
import type { PaddleSubscription } from "~/server/billing/paddle-events.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import {
  audit_log,
  checkouts,
  demo_billing,
  licenses,
  outbound_events,
  payments,
  user_events,
  users,
} from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../../support/admin-app";
import { demoPurchase } from "../../support/checkout";
import { call, formRequest, getRequest, routeArgs } from "../../support/route-call";
import { stubPaymentProvider } from "../../support/stub-provider";
import { testEngines, type TestApp } from "../../support/test-app";

const [, USER] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("switching plans with the demo provider on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let userCookie: string;
  let adminCookie: string;
  let user: { id: string; email: string };

  beforeAll(async () => {
    ({ app, userCookie, adminCookie } = await startAdminTestApp(engine));
    const [row] = await app.database.db.select().from(users).where(eq(users.email, USER.email));
    user = { id: row!.id, email: row!.email };
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  beforeEach(async () => {
    await drainJobs();
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });

  const db = () => app.database.db;
  const post = (fields: Record<string, string>, cookie = userCookie) =>
    call(() => licensesRoute.action(routeArgs(formRequest("/licenses", fields, cookie))));
  const bought = async (plan: "monthly" | "6_months" | "yearly") => {
    await db().update(checkouts).set({ status: "superseded" }).where(eq(checkouts.user_id, user.id));
    const { subscriptionId } = await demoPurchase(db(), demo, user, plan);
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId));
    return { license: license!, subscriptionId };
  };
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const demoSubscription = async (id: string) =>
    (await db().select().from(demo_billing).where(eq(demo_billing.id, id)))[0]!.data as PaddleSubscription;
  const preview = (licenseId: string, plan: string) => post({ intent: "preview-plan", licenseId, plan });

  it("monthly → yearly: the preview, then the charge now, the license yearly through the webhook, billing, invoice, timeline, audit and the vendor's event", async () => {
    const { license, subscriptionId } = await bought("monthly");
    const shown = await preview(license.id, "yearly");
    expect(shown.status).toBe(200);
    const quote = shown.data.planSwitch;
    expect(quote.preview).toMatchObject({ from: "monthly", to: "yearly", effect: "now", currency: "USD" });
    // Just bought: almost the whole month is credited, the year less it charged now.
    expect(quote.preview.creditCents).toBeGreaterThan(880);
    expect(quote.preview.creditCents).toBeLessThanOrEqual(900);
    expect(quote.preview.chargedNowCents).toBe(9000 - quote.preview.creditCents);
    expect(quote.preview.nextChargeCents).toBe(9000);
    expect(quote.preview.becomes).toMatchObject({ plan: "yearly", machines: 2 });
    // The preview changed nothing.
    expect((await reload(license.id)).license_type).toBe("monthly");
    expect((await demoSubscription(subscriptionId)).items[0]!.price.id).toBe("pri_demo_monthly");

    const before = Date.now();
    const done = await post({ intent: "change-plan", licenseId: license.id, plan: "yearly", stamp: quote.stamp });
    expect(done.status).toBe(200);
    expect(done.data.toast).toMatchObject({ title: "Plan changed", variant: "success" });
    expect(done.data.toast.description).toMatch(/^Your license is now Yearly: \$8\d\.\d\d charged, next charge on /);

    const after = await reload(license.id);
    expect(after.license_type).toBe("yearly");
    expect(after.plan_next_renewal).toBeNull();
    expect(after.end_date.getTime() - before).toBeGreaterThan(364 * DAY);
    expect(after.end_date.getTime() - before).toBeLessThan(367 * DAY);
    expect(after.license_key).not.toBe(license.license_key);
    const sub = await demoSubscription(subscriptionId);
    expect(sub.items[0]!.price.id).toBe("pri_demo_yearly");
    expect(sub.next_billed_at).toBe(after.end_date.toISOString());

    const paid = await db().select().from(payments).where(eq(payments.license_id, license.id));
    const change = paid.find((p) => p.kind === "plan_change")!;
    expect(change.amount_cents).toBe(quote.preview.chargedNowCents);
    const history = (await listBillingHistory(user.id)).filter((entry) => entry.id === change.id);
    expect(history.map((entry) => paymentDescription(entry))).toEqual([
      "Switch to a Yearly license (unused time credited)",
    ]);
    const invoice = await buildInvoice(user.id, (await getOwnPayment(user.id, change.id))!);
    expect(invoice.totalCents).toBe(change.amount_cents);
    expect(invoice.lines[0]!.description).toContain("Switch to a Yearly license (unused time credited)");

    const events = await db()
      .select()
      .from(outbound_events)
      .where(eq(outbound_events.type, "license.plan_changed"))
      .orderBy(desc(outbound_events.occurred_at));
    const event = events.find((e) => (e.data as { license: { id: string } }).license.id === license.id)!;
    expect(event.data).toMatchObject({
      previous_plan: "monthly",
      plan: "yearly",
      payment: { transaction_id: change.id, amount_cents: change.amount_cents },
      license: { license_type: "yearly" },
    });
    const timeline = await db().select().from(user_events).where(eq(user_events.user_id, user.id));
    const kinds = timeline.filter((e) => (e.details as { license_id?: string }).license_id === license.id);
    expect(kinds.map((e) => e.kind)).toEqual(expect.arrayContaining(["payment.plan_change", "license.plan_changed"]));
    expect(USER_EVENT_LABELS["license.plan_changed"]).toBe("Plan changed");
    const [audit] = await db()
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.target_id, license.id), eq(audit_log.action, "license.plan_change")));
    expect(audit!.actor_id).toBe(user.id);
    expect(audit!.details).toMatchObject({
      from: "monthly",
      to: "yearly",
      proration_billing_mode: "prorated_immediately",
    });
    expect(auditActionLabel("license.plan_change")).toBe("Changed a license's plan");

    // The same preview again: the subscription changed since, and so did the plan.
    const again = await post({ intent: "change-plan", licenseId: license.id, plan: "monthly", stamp: quote.stamp });
    expect(again.status).toBe(409);
    expect(again.data.toast.description).toBe(PLAN_SWITCH_INPUT_ERRORS.stalePreview);
  });

  it("yearly → monthly: nothing charged now, waits for the renewal, a second change refused until then, the renewal bills monthly", async () => {
    const { license, subscriptionId } = await bought("yearly");
    const quote = (await preview(license.id, "monthly")).data.planSwitch;
    expect(quote.preview).toMatchObject({
      effect: "next-renewal",
      chargedNowCents: 0,
      creditCents: 0,
      nextChargeCents: 900,
    });
    expect(quote.preview.nextChargeAt).toBe(license.end_date.toISOString());
    const done = await post({ intent: "change-plan", licenseId: license.id, plan: "monthly", stamp: quote.stamp });
    expect(done.status).toBe(200);
    expect(done.data.toast.title).toBe("Plan change scheduled");

    const waiting = await reload(license.id);
    expect(waiting.license_type).toBe("yearly");
    expect(waiting.plan_next_renewal).toBe("monthly");
    expect(waiting.end_date).toEqual(license.end_date);
    const paidBefore = await db().select().from(payments).where(eq(payments.license_id, license.id));
    expect(paidBefore.map((p) => p.kind)).toEqual(["purchase"]);

    // A second change while one is pending: 409 naming it; the subscription unchanged.
    const second = await preview(license.id, "6_months");
    expect(second.status).toBe(409);
    expect(second.data.toast.description).toBe(PLAN_SWITCH_REFUSALS.pending("Monthly"));

    // The renewal bills the monthly price and the license becomes monthly.
    const renewed = await demo.renew(subscriptionId, new Date());
    expect(renewed.outcome).toBe("renewed");
    const after = await reload(license.id);
    expect(after.license_type).toBe("monthly");
    expect(after.plan_next_renewal).toBeNull();
    const renewal = (await db().select().from(payments).where(eq(payments.license_id, license.id))).find(
      (p) => p.kind === "renewal",
    )!;
    expect(renewal.amount_cents).toBe(900);
    expect(after.end_date.getTime() - license.end_date.getTime()).toBeLessThan(32 * DAY);
  });

  it("bad input: not a plan, the same plan, no preview, an old preview; each a 4xx and the subscription unchanged", async () => {
    const { license, subscriptionId } = await bought("monthly");
    const before = await demoSubscription(subscriptionId);
    const notAPlan = await preview(license.id, "lifetime");
    expect(notAPlan.status).toBe(400);
    expect(notAPlan.data.toast.description).toBe(PLAN_SWITCH_INPUT_ERRORS.unknownPlan("lifetime"));
    const same = await preview(license.id, "monthly");
    expect(same.status).toBe(409);
    expect(same.data.toast.description).toBe(PLAN_SWITCH_INPUT_ERRORS.samePlan("Monthly"));
    const noPreview = await post({ intent: "change-plan", licenseId: license.id, plan: "yearly" });
    expect(noPreview.status).toBe(400);
    expect(noPreview.data.toast.description).toBe(PLAN_SWITCH_INPUT_ERRORS.missingPreview);
    const quote = (await preview(license.id, "yearly")).data.planSwitch;
    // The subscription changes after the preview (a provider event): the preview is stale.
    await db().update(licenses).set({ subscription_synced_at: new Date() }).where(eq(licenses.id, license.id));
    const stale = await post({ intent: "change-plan", licenseId: license.id, plan: "yearly", stamp: quote.stamp });
    expect(stale.status).toBe(409);
    expect(stale.data.toast.description).toBe(PLAN_SWITCH_INPUT_ERRORS.stalePreview);
    expect(await demoSubscription(subscriptionId)).toEqual(before);
    expect((await reload(license.id)).license_type).toBe("monthly");
  });

  it("refused where it makes no sense: another's license 404, a cancelled renewal, a past-due one, a trial", async () => {
    const { license } = await bought("monthly");
    const other = await preview(license.id, "yearly").then(() =>
      post({ intent: "preview-plan", licenseId: license.id, plan: "yearly" }, adminCookie),
    );
    expect(other.status).toBe(404);
    await db()
      .update(licenses)
      .set({ cancellation_requested: true, auto_renew: false })
      .where(eq(licenses.id, license.id));
    const cancelled = await preview(license.id, "yearly");
    expect(cancelled.status).toBe(409);
    expect(cancelled.data.toast.description).toBe(PLAN_SWITCH_REFUSALS.renewalCancelled);
    await db()
      .update(licenses)
      .set({ cancellation_requested: false, auto_renew: true, past_due_since: new Date() })
      .where(eq(licenses.id, license.id));
    const pastDue = await preview(license.id, "yearly");
    expect(pastDue.status).toBe(409);
    expect(pastDue.data.toast.description).toBe(PLAN_SWITCH_REFUSALS.pastDue);
    await db()
      .update(licenses)
      .set({ past_due_since: null, is_trial: true, trial_ends_at: new Date(Date.now() + DAY) })
      .where(eq(licenses.id, license.id));
    const trial = await preview(license.id, "yearly");
    expect(trial.status).toBe(409);
    expect(trial.data.toast.description).toBe(PLAN_SWITCH_REFUSALS.trial);
  });

  it("without JavaScript: /licenses/plan lists the plans, previews the one chosen, and its form switches; the licenses page says what was done", async () => {
    const { license } = await bought("monthly");
    const page = (query: string, cookie = userCookie) =>
      call(() => planPage.loader(routeArgs(getRequest(`/licenses/plan?${query}`, cookie))));
    const plans = await page(`license=${license.id}`);
    expect(plans.status).toBe(200);
    expect(plans.data.options.map((o: { id: string }) => o.id)).toEqual(["6_months", "yearly"]);
    expect(plans.data.quote).toBeNull();
    const chosen = await page(`license=${license.id}&plan=6_months`);
    expect(chosen.data.quote.preview).toMatchObject({ to: "6_months", effect: "now", nextChargeCents: 4950 });
    const wrong = await page(`license=${license.id}&plan=weekly`);
    expect(wrong.data.problem).toBe(PLAN_SWITCH_INPUT_ERRORS.unknownPlan("weekly"));
    // Another's license, or none: back to the licenses page with why.
    expect((await page(`license=${license.id}`, adminCookie)).status).toBe(302);
    expect((await page("license=not-a-uuid")).status).toBe(302);

    const posted = await post({
      intent: "change-plan",
      licenseId: license.id,
      plan: "6_months",
      stamp: chosen.data.quote.stamp,
      native: "1",
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe(`/licenses#license-${license.id}`);
    expect((await reload(license.id)).license_type).toBe("6_months");
    // Now on 6 months: yearly is offered now, monthly from the next renewal.
    const after = await page(`license=${license.id}`);
    expect(after.data.options.map((o: { id: string; effect: string }) => [o.id, o.effect])).toEqual([
      ["monthly", "next-renewal"],
      ["yearly", "now"],
    ]);
  });

  it("a team's subscription is sent to /team, with nothing asked of the provider", async () => {
    const { license, subscriptionId } = await bought("monthly");
    await db().update(licenses).set({ team_role: "billing" }).where(eq(licenses.id, license.id));
    const before = await demoSubscription(subscriptionId);
    const refused = await preview(license.id, "yearly");
    expect(refused.status).toBe(409);
    expect(refused.data.toast.description).toBe(PLAN_SWITCH_REFUSALS.teamSubscription);
    expect(await demoSubscription(subscriptionId)).toEqual(before);
    await db().update(licenses).set({ team_role: null }).where(eq(licenses.id, license.id));
  });

  it("the provider refuses the change: 502 with the page's text, the license unchanged, nothing audited", async () => {
    const { license } = await bought("monthly");
    const quote = (await preview(license.id, "yearly")).data.planSwitch;
    setPaymentProvider(
      stubPaymentProvider({
        previewPlanChange: demo.previewPlanChange,
        changePlan: async () => {
          throw new ProviderError("Paddle plan change failed: subscription_locked_pending_changes");
        },
      }),
    );
    const refused = await post({ intent: "change-plan", licenseId: license.id, plan: "yearly", stamp: quote.stamp });
    expect(refused.status).toBe(502);
    expect(refused.data.toast.description).toBe(PLAN_SWITCH_TEXTS.changeFailed);
    const after = await reload(license.id);
    expect(after).toMatchObject({ license_type: "monthly", plan_next_renewal: null });
    expect(after.subscription_synced_at).toEqual(license.subscription_synced_at);
    const audited = await db()
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.target_id, license.id), eq(audit_log.action, "license.plan_change")));
    expect(audited).toEqual([]);
  });
});
