import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addMonths } from "~/domain/extension";
import { fallbackSentence } from "~/domain/fallback";
import { setReleaseFlag } from "~/server/admin/manage-releases.server";
import { listBillingHistory } from "~/server/billing/billing-history.server";
import { billingOverview } from "~/server/billing/billing-overview.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { licenses, payments, releases } from "~/server/db/schema";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { licenseView } from "~/server/mail/customer-mail.server";
import { licenseApiApp, NONCE, openLicenseFile } from "../../support/license-api-app";
import { adjustment, days, envelope, signed, transaction } from "../../support/paddle-fixtures";
import { createUser, testEngines } from "../../support/test-app";

/**
 * The perpetual fallback served (decisions 0066 and 0070): 12 monthly payments delivered as the
 * provider's webhooks earn the newest stable release published before the run began; the validation
 * answer, the license file, the update check, the card, /billing and the e-mail say it; a refund or a
 * chargeback of a payment in the run takes it back, and a release change moves it.
 */
describe.each(testEngines())("perpetual fallback on %s", (engine) => {
  const { startApp, stopApp, state, db, api, validate, setLicense } = licenseApiApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  // The run starts 330 days ago: 12 monthly periods end about a month from now.
  const start = days(-330);
  const FINGERPRINT = "fp-0123456789abcdef-fallback";
  let n = 0;

  const deliver = async (event: unknown) => {
    const secret = state.app.env.DEMO_WEBHOOK_SECRET;
    const result = await receiveWebhook({ ...signed(secret, event), secret });
    expect(result.status).toBe(200);
  };
  const release = (version: string, published: Date | null, channel = "stable") => ({
    version,
    release_date: (published ?? new Date()).toISOString().slice(0, 10),
    channel,
    published_at: published,
  });

  beforeEach(async () => {
    // The releases this file reasons about, and no other.
    await db().delete(releases);
    await db()
      .insert(releases)
      .values([
        release("1.0.0", days(-30, start)),
        release("1.1.0", days(-10, start)),
        release("1.2.0-beta.1", days(-5, start), "beta"),
        release("1.3.0", null),
        release("1.2.0", days(100, start)),
        release("2.0.0", days(-1)),
      ]);
  });

  /** A new customer with 12 monthly payments without a gap, each delivered as transaction.completed. */
  async function paidYear() {
    const user = await createUser(db(), `fallback-${engine}-${++n}@example.com`);
    const charges = [];
    let subscriptionId: string | null | undefined = undefined;
    for (let month = 0; month < 12; month++) {
      const txn = transaction({
        userId: user.id,
        amountCents: 900,
        subscriptionId,
        start: addMonths(start, month),
        end: addMonths(start, month + 1),
        origin: month === 0 ? "web" : "subscription_recurring",
      });
      subscriptionId = txn.subscription_id;
      await deliver(envelope("transaction.completed", txn));
      charges.push(txn);
    }
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId!));
    return { user, license: license!, charges };
  }
  const stored = async (id: string) =>
    (await db().select({ v: licenses.fallback_version }).from(licenses).where(eq(licenses.id, id)))[0]!.v;
  const update = (licenseId?: string) =>
    api(
      "GET",
      `/updates/latest?current=1.0.0&nonce=${NONCE}` +
        (licenseId ? `&license_id=${licenseId}&fingerprint=${FINGERPRINT}` : ""),
    );
  /** The subscription ended yesterday (its renewal was cancelled). */
  const endNow = (id: string) =>
    setLicense(id, { end_date: days(-1), auto_renew: false, cancellation_requested: true });

  it("records each payment's paid period and stores the fallback the 12 months earn", async () => {
    const { license, charges } = await paidYear();
    const rows = await db().select().from(payments).where(eq(payments.license_id, license.id));
    expect(rows).toHaveLength(12);
    for (const charge of charges) {
      const row = rows.find((r) => r.id === charge.id)!;
      expect(row.period_start?.toISOString()).toBe(charge.billing_period!.starts_at);
      expect(row.period_end?.toISOString()).toBe(charge.billing_period!.ends_at);
    }
    // The newest stable release before the run's start: not the beta, the draft or the later ones.
    expect(license.fallback_version).toBe("1.1.0");
  });

  it("eleven months earn nothing yet", async () => {
    const user = await createUser(db(), `fallback-${engine}-${++n}@example.com`);
    let subscriptionId: string | null | undefined = undefined;
    for (let month = 0; month < 11; month++) {
      const txn = transaction({
        userId: user.id,
        amountCents: 900,
        subscriptionId,
        start: addMonths(start, month),
        end: addMonths(start, month + 1),
        origin: month === 0 ? "web" : "subscription_recurring",
      });
      subscriptionId = txn.subscription_id;
      await deliver(envelope("transaction.completed", txn));
    }
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId!));
    expect(license!.fallback_version).toBeNull();
    const answer = await validate({ key: license!.license_key });
    expect(answer.json.license).toMatchObject({ fallback_version: null, updates_until: null });
  });

  it("the answer, the file and the update check carry it while the subscription runs", async () => {
    const { license } = await paidYear();
    const answer = await validate({ key: license.license_key, fallback: true });
    expect(answer.json).toMatchObject({ valid: true, code: "VALID" });
    expect(answer.json.license).toMatchObject({
      fallback_version: "1.1.0",
      updates_until: license.end_date.toISOString(),
    });
    const file = await api("GET", `/licenses/file?key=${encodeURIComponent(license.license_key)}`);
    expect(file.status).toBe(200);
    const payload = openLicenseFile(file.json, (await api("GET", "/keys")).json.keys);
    expect(payload).toMatchObject({ fallback_version: "1.1.0", updates_until: license.end_date.toISOString() });
    // Still paying: every release is offered, and the answer names no fallback.
    const check = await update(license.id);
    expect(check.json.latest.version).toBe("2.0.0");
    expect(check.json).not.toHaveProperty("fallback_version");
  });

  it("once the subscription ended: EXPIRED_FALLBACK for a tool that asks, EXPIRED with the fields for others, updates capped", async () => {
    const { license } = await paidYear();
    const ended = await endNow(license.id);
    const asked = await validate({ key: license.license_key, fallback: true });
    expect(asked.json).toMatchObject({ valid: false, code: "EXPIRED_FALLBACK" });
    expect(asked.json.license).toMatchObject({
      fallback_version: "1.1.0",
      updates_until: ended.end_date.toISOString(),
    });
    expect(asked.json.license).not.toHaveProperty("license_key");
    // A tool built before the fallback: the code it knows, the new fields beside it.
    for (const body of [{ key: license.license_key }, { key: license.license_key, fallback: false }]) {
      const old = await validate(body);
      expect(old.json).toMatchObject({ valid: false, code: "EXPIRED" });
      expect(old.json.license).toMatchObject({ fallback_version: "1.1.0" });
    }
    const wrong = await validate({ key: license.license_key, fallback: "yes" });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ field: "fallback", error: "fallback must be true or false." });
    // The machine of the ended license is offered only releases within its fallback.
    const capped = await update(license.id);
    expect(capped.json).toMatchObject({ fallback_version: "1.1.0", update_available: true });
    expect(capped.json.latest.version).toBe("1.1.0");
    // A tool naming no machine is offered what it always was.
    expect((await update()).json.latest.version).toBe("2.0.0");
  });

  it("a refund of a payment in the run takes the fallback back", async () => {
    const { license, charges } = await paidYear();
    const refunded = charges[5]!;
    await deliver(
      envelope(
        "adjustment.created",
        adjustment({
          transactionId: refunded.id,
          subscriptionId: refunded.subscription_id,
          amountCents: 855,
          status: "pending_approval",
        }),
      ),
    );
    // A refund waiting for approval changes nothing.
    expect(await stored(license.id)).toBe("1.1.0");
    await deliver(
      envelope(
        "adjustment.updated",
        adjustment({
          transactionId: refunded.id,
          subscriptionId: refunded.subscription_id,
          amountCents: 855,
          status: "approved",
        }),
      ),
    );
    expect(await stored(license.id)).toBeNull();
    const answer = await validate({ key: license.license_key, fallback: true });
    expect(answer.json.code).not.toBe("EXPIRED_FALLBACK");
    expect(answer.json.license).toMatchObject({ fallback_version: null, updates_until: null });
  });

  it("a chargeback takes it back; a warning does not, and a reversal gives it again", async () => {
    const { license, charges } = await paidYear();
    const disputed = charges[3]!;
    const dispute = (action: "chargeback" | "chargeback_warning" | "chargeback_reverse") =>
      deliver(
        envelope(
          "adjustment.created",
          adjustment({
            action,
            transactionId: disputed.id,
            subscriptionId: disputed.subscription_id,
            amountCents: 900,
            status: "approved",
          }),
        ),
      );
    await dispute("chargeback_warning");
    expect(await stored(license.id)).toBe("1.1.0");
    await dispute("chargeback");
    expect(await stored(license.id)).toBeNull();
    const answer = await validate({ key: license.license_key, fallback: true });
    expect(answer.json).toMatchObject({ code: "REVOKED" });
    expect(answer.json.license).toMatchObject({ fallback_version: null, updates_until: null });
    await dispute("chargeback_reverse");
    expect(await stored(license.id)).toBe("1.1.0");
  });

  it("a release yanked or published moves the stored fallback in its own transaction", async () => {
    const { license } = await paidYear();
    const [kept] = await db().select().from(releases).where(eq(releases.version, "1.1.0"));
    const admin = { id: null, email: "admin@example.com" };
    await setReleaseFlag({ admin, id: kept!.id, flag: "yank" });
    expect(await stored(license.id)).toBe("1.0.0");
    await setReleaseFlag({ admin, id: kept!.id, flag: "unyank" });
    expect(await stored(license.id)).toBe("1.1.0");
  });

  it("the card, /billing and the e-mail say what the customer keeps, in the rule's sentence", async () => {
    const { user, license } = await paidYear();
    const running = fallbackSentence("1.1.0", false);
    const card = (await listUserLicenses(user.id)).find((l) => l.id === license.id)!;
    expect(card.fallback_version).toBe("1.1.0");
    const overview = billingOverview(await listUserLicenses(user.id), await listBillingHistory(user.id), new Date());
    expect(overview.keeps).toEqual([{ licenseId: license.id, licenseShortId: license.short_id, text: running }]);
    expect(licenseView(await reloadLicense(license.id)).keeps).toBe(running);

    await endNow(license.id);
    const after = billingOverview(await listUserLicenses(user.id), [], new Date());
    expect(after.keeps[0]!.text).toBe(fallbackSentence("1.1.0", true));
    expect(licenseView(await reloadLicense(license.id)).keeps).toBe(fallbackSentence("1.1.0", true));
  });

  const reloadLicense = async (id: string) =>
    ({ ...(await db().select().from(licenses).where(eq(licenses.id, id)))[0]!, renewal_seats: null }) as Parameters<
      typeof licenseView
    >[0];
});
