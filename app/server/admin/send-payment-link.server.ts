import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { licenseState } from "~/domain/license-state";
import { renewalCharge } from "~/domain/renewal-charge";
import { graceEndsAt } from "~/domain/past-due";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { licenseCharges } from "../billing/license-charges.server";
import { getDb } from "../db/db.server";
import { licenses } from "../db/schema";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { stateFactsOf } from "../teams/renewal-seats.server";

/** Why support cannot send the link: the license's payment did not fail, or the grace period is over. */
export const PAYMENT_LINK_REFUSED =
  "Only a license whose renewal payment failed, and still works, has a payment to update.";

/**
 * Support e-mails the customer the way to update their card (decision 0060): the failed-payment e-mail
 * again (its "Update payment method" opens the license's card, which takes the new card and charges
 * the renewal), only while the license is past due and still in its grace period. Audited; the
 * e-mail's key is new each time, so every request sends one.
 */
export async function sendPaymentLink({
  admin,
  licenseId,
  userId,
}: {
  admin: AuditActor;
  licenseId: string;
  userId: string;
}): Promise<{ email: string; shortId: string }> {
  if (!isUuid(licenseId)) throw new ActionError(404, "License not found");
  return getDb().transaction(async (tx) => {
    const [license] = await tx.select().from(licenses).where(eq(licenses.id, licenseId)).for("update");
    if (!license || license.user_id !== userId) throw new ActionError(404, "License not found");
    const facts = { ...(await stateFactsOf(tx, license)), charges: await licenseCharges(licenseId, tx) };
    if (licenseState(facts, new Date()).state !== "payment-failed") {
      throw new ActionError(409, PAYMENT_LINK_REFUSED);
    }
    const graceUntil = graceEndsAt(license);
    // What the card asks the customer to pay, in the subscription's currency (decision 0072).
    const { cents: amountCents, currency } = renewalCharge(facts);
    await queueCustomerMail(tx, {
      kind: "payment-failed",
      licenseId,
      key: `admin-payment-link:${randomUUID()}`,
      details: {
        ...(graceUntil ? { graceUntil: graceUntil.toISOString() } : {}),
        ...(amountCents !== null ? { amountCents, currency } : {}),
      },
    });
    await recordAudit(tx, admin, {
      action: "license.payment_link",
      target_type: "license",
      target_id: licenseId,
      details: { user_id: license.user_id, short_id: license.short_id, email: license.email },
    });
    return { email: license.email, shortId: license.short_id };
  });
}
