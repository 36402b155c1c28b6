import { and, eq, notInArray } from "drizzle-orm";
import { isRefundLocked, licenseFacts } from "~/domain/license-status";
import type { SuccessView } from "~/domain/success-page";
import { trialConversion } from "~/domain/trial-conversion";
import { getDb } from "../db/db.server";
import { checkouts, licenses, payments, teams } from "../db/schema";

/**
 * What the success page may show for a transaction id from its address (decision 0037): the payment and
 * the license it paid for when both are the user's; "confirming" while the user's own checkout
 * waits for its webhook; otherwise nothing about it (an unknown or another user's transaction).
 */
export async function successView(
  userId: string,
  transactionId: string | null,
  now = new Date(),
): Promise<SuccessView> {
  if (!transactionId || transactionId.length > 200) return { kind: "generic" };
  const db = getDb();
  const [paid] = await db
    .select({ payment: payments, license: licenses, team: { name: teams.name, seats: teams.seats_paid } })
    .from(payments)
    .innerJoin(licenses, eq(licenses.id, payments.license_id))
    .leftJoin(teams, eq(teams.id, licenses.team_id))
    .where(and(eq(payments.id, transactionId), eq(payments.user_id, userId), eq(licenses.user_id, userId)));
  if (paid) {
    const { payment, license } = paid;
    // A team's subscription is paid for here, but its key opens nothing: the seats do.
    const team = license.team_role === "billing" ? paid.team : null;
    const works = license.status === "active" && !isRefundLocked(license) && !team;
    // The payment says the subscription's currency, and so what the first charge is in (decision 0072).
    const trial = trialConversion({ ...licenseFacts(license), charges: [payment] }, now);
    const trialStarted = payment.kind === "purchase" && payment.amount_cents === 0 && license.is_trial;
    return {
      kind: trialStarted ? "trial-started" : "paid",
      transactionId,
      amountCents: payment.amount_cents,
      currency: payment.currency,
      license: {
        short_id: license.short_id,
        license_type: license.license_type,
        end_date: license.end_date.toISOString(),
        is_trial: license.is_trial,
        license_key: works ? license.license_key : null,
      },
      firstCharge:
        trial?.state === "converting"
          ? { at: trial.firstChargeAt.toISOString(), cents: trial.amountCents, currency: trial.currency }
          : null,
      team,
    };
  }
  const [checkout] = await db
    .select({ trial: checkouts.trial })
    .from(checkouts)
    .where(
      and(
        eq(checkouts.transaction_id, transactionId),
        eq(checkouts.user_id, userId),
        notInArray(checkouts.status, ["failed", "superseded"]),
      ),
    );
  return checkout ? { kind: "confirming", transactionId, trial: checkout.trial } : { kind: "generic" };
}
