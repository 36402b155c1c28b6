import { and, eq } from "drizzle-orm";
import { extendedEndDate } from "~/domain/extension";
import type { Transaction } from "../db/client.server";
import { checkouts, licenses, payments } from "../db/schema";
import { recomputeFallback } from "../licenses/fallback.server";
import { getLogger } from "../logger.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import type { PaddleTransaction } from "./paddle-events.server";
import type { FollowUp } from "./payment-provider.server";
import { flagAudit, newKey, paymentData, type PaymentFacts } from "./transaction-facts.server";

/** An extension payment: applied only when its transaction is the extension checkout the server created. */
export async function applyExtensionPayment(
  tx: Transaction,
  txn: PaddleTransaction,
  payment: PaymentFacts,
): Promise<FollowUp[]> {
  const log = getLogger();
  const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.transaction_id, txn.id)).for("update");
  const currency = txn.details.totals.currency_code;
  if (
    !checkout ||
    checkout.kind !== "extension" ||
    checkout.status === "completed" ||
    checkout.user_id !== payment.user_id ||
    !checkout.license_id ||
    currency !== checkout.currency ||
    payment.amount_cents < checkout.amount_cents
  ) {
    log.warn(
      { transaction: txn.id, amount: payment.amount_cents, currency },
      "extension payment does not match a checkout the site created: not applied",
    );
    await flagAudit(tx, "extension_refused", txn.id, {
      transaction: txn.id,
      user_id: payment.user_id,
      amount_cents: payment.amount_cents,
      currency,
    });
    return [];
  }
  const [license] = await tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, checkout.license_id), eq(licenses.user_id, checkout.user_id)))
    .for("update");
  if (!license) {
    log.warn(
      { transaction: txn.id, licenseId: checkout.license_id },
      "extension paid for a license that does not exist",
    );
    return [];
  }
  const end_date = extendedEndDate(license.end_date, payment.billed_at, checkout.months);
  await tx
    .update(licenses)
    // A paid extension makes a trial a paid license.
    .set({
      end_date,
      extended_months: license.extended_months + checkout.months,
      is_trial: false,
      license_key: newKey(license, end_date),
    })
    .where(eq(licenses.id, license.id));
  // The months it added are its paid period (decision 0066): from where the license stood, or from now once ended.
  const period_start = license.end_date > payment.billed_at ? license.end_date : payment.billed_at;
  await tx
    .insert(payments)
    .values({ ...payment, license_id: license.id, kind: "extension", period_start, period_end: end_date });
  await recomputeFallback(tx, license.id);
  await tx
    .update(checkouts)
    .set({ status: "completed", updated_at: payment.billed_at })
    .where(eq(checkouts.id, checkout.id));
  await recordEvent(
    tx,
    "license.extended",
    licenseEvent(
      { ...license, end_date, is_trial: false },
      { months: checkout.months, previous_end_date: license.end_date, payment: paymentData(payment) },
    ),
  );
  await queueCustomerMail(tx, {
    kind: "extended",
    licenseId: license.id,
    key: payment.id,
    details: { months: checkout.months, amountCents: payment.amount_cents, currency: payment.currency ?? undefined },
  });
  return [];
}
