import type { z } from "zod";
import { asc, eq } from "drizzle-orm";
import {
  customerMailKey,
  dueReminder,
  isCustomerMailKind,
  isReminderKind,
  type CustomerMailKind,
} from "~/domain/customer-mail";
import { formatMoney, isFirstPaidRenewal, paymentDescription } from "~/domain/billing";
import { licenseFallbackSentence } from "~/domain/fallback";
import { formatDate } from "~/domain/format-date";
import { licenseState, type SubscriptionCharge } from "~/domain/license-state";
import { renewalCharge } from "~/domain/renewal-charge";
import { licenseFacts } from "~/domain/license-status";
import { getPlan, isPlanId, licenseTypeLabel } from "~/domain/plans";
import type { CustomerEmailFields, LicenseView } from "~/emails/customer-email-types.server";
import { customerEmail } from "~/emails/customer-emails.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { licenses, payments, profiles, users, type License } from "../db/schema";
import type { JobDefinition } from "../jobs/jobs.server";
import { enqueue } from "../jobs/jobs.server";
import { JOB_PAYLOADS } from "../jobs/job-payloads.server";
import { licenseCharges } from "../billing/license-charges.server";
import { getMailer } from "./mailer.server";
import { mailBrand } from "./recipient.server";
import { renewalSeatsColumn } from "../teams/renewal-seats.server";

/**
 * The customer e-mails about a license (decision 0022). A change that warrants one queues it in its own
 * transaction with `queueCustomerMail`: the e-mail goes if and only if the change commits, and once
 * per occasion (the job key is license + kind + occasion, kept in job_keys), so a replayed webhook
 * sends nothing new. The job composes the e-mail from the license as it is when it runs and sends it
 * through the site's mailer (SMTP, or the dev mailbox in embedded mode); a failed send is retried.
 */

/** Facts known when the e-mail is queued that the license row does not keep. */
/**
 * What an e-mail needs besides the license (amounts, months, grace end, reminder date, a revocation's
 * reason): the job's payload schema is the one description, so a field cannot be dropped between them.
 */
export type CustomerMailDetails = z.infer<(typeof JOB_PAYLOADS)["customer-mail"]>["details"];

export interface CustomerMailRequest {
  kind: CustomerMailKind;
  licenseId: string;
  /**
   * The occasion: a transaction or adjustment id, a period's end… With the kind and the license it
   * makes the job key, so the same occasion sends this e-mail at most once.
   */
  key: string;
  details?: CustomerMailDetails;
}

interface CustomerMailJobData {
  kind: CustomerMailKind;
  licenseId: string;
  details: CustomerMailDetails;
}

/**
 * Queues one customer e-mail inside the caller's transaction (a webhook's, an action's). Returns
 * the job id, or null when this occasion's e-mail was queued before.
 */
export function queueCustomerMail(tx: Transaction, request: CustomerMailRequest): Promise<string | null> {
  if (!isCustomerMailKind(request.kind)) throw new Error(`Unknown customer e-mail kind ${String(request.kind)}`);
  if (!request.licenseId || !request.key) throw new Error("A customer e-mail needs a license and an occasion key");
  const data: CustomerMailJobData = {
    kind: request.kind,
    licenseId: request.licenseId,
    details: request.details ?? {},
  };
  return enqueue(CUSTOMER_MAIL_JOB, data, { key: customerMailKey(request.kind, request.licenseId, request.key), tx });
}

export const CUSTOMER_MAIL_JOB = "customer-mail";

/** Sends one queued customer e-mail; a failing mail server is retried for about a day. */
export const customerMailJob: JobDefinition<CustomerMailJobData> = {
  payload: JOB_PAYLOADS["customer-mail"],
  retryLimit: 10,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
  handle: async (data) => sendCustomerMail(data),
};

const money = (details: CustomerMailDetails) =>
  details.amountCents != null && details.amountCents > 0
    ? formatMoney(details.amountCents, details.currency ?? "USD")
    : null;

/**
 * A license as the e-mails read it: with a team subscription's renewal seats, and its payments, whose
 * currency is the subscription's (the renewal's amount is said in it, decision 0072).
 */
type MailLicense = License & { renewal_seats: number | null; charges?: SubscriptionCharge[] };

/**
 * What the next renewal charges, as the license card says it (the one rule, renewal-charge.ts): the plan
 * the subscription bills now (after a plan switch, the new plan's price, not the last charge of the old
 * one), a team's seats, in the subscription's currency; "the plan's price" when no amount is known.
 */
function nextChargeAmount(license: MailLicense): string {
  const { cents, currency } = renewalCharge(license);
  return cents === null ? "the plan's price" : formatMoney(cents, currency);
}

/** Each refunded charge of the license, oldest first: what the refund e-mail lists (decision 0036). */
async function refundedCharges(license: License): Promise<[string, string][]> {
  const rows = await getDb()
    .select()
    .from(payments)
    .where(eq(payments.license_id, license.id))
    .orderBy(asc(payments.billed_at));
  // Named as /billing names them: a trial's end is the plan's first payment, not a renewal (decision 0057).
  return rows
    .filter((p) => p.refunded_cents > 0)
    .map((p) => [
      `${paymentDescription({ ...p, license_type: license.license_type, first_paid: isFirstPaidRenewal(p, rows) })}, ${formatDate(p.billed_at)}`,
      `paid ${formatMoney(p.amount_cents, p.currency)}, refunded ${formatMoney(p.refunded_cents, p.currency)}`,
    ]);
}

/** The license as the templates read it, with its state now from the one state function (decision 0030). */
export function licenseView(license: MailLicense, now = new Date()): LicenseView {
  const state = licenseState(licenseFacts(license), now);
  return {
    stateLine: state.line,
    nextCharge:
      state.nextChargeCents !== null && state.date
        ? { at: state.date, amount: formatMoney(state.nextChargeCents, state.nextChargeCurrency) }
        : null,
    shortId: license.short_id,
    planName: licenseTypeLabel(license.license_type),
    startDate: license.start_date,
    endDate: license.end_date,
    isTrial: license.is_trial,
    trialEndsAt: license.is_trial ? license.trial_ends_at : null,
    licenseKey: license.license_key,
    keeps: licenseFallbackSentence(licenseFacts(license), now),
  };
}

/** Composes and sends the e-mail, or explains why it is no longer wanted (what the job records). */
export async function sendCustomerMail({ kind, licenseId, details }: CustomerMailJobData) {
  const [row] = await getDb()
    .select({
      license: licenses,
      renewalSeats: renewalSeatsColumn,
      email: users.email,
      reminders: users.reminder_emails,
      name: profiles.full_name,
    })
    .from(licenses)
    .innerJoin(users, eq(users.id, licenses.user_id))
    .leftJoin(profiles, eq(profiles.id, licenses.user_id))
    .where(eq(licenses.id, licenseId));
  if (!row) return { skipped: "the license no longer exists" };
  const charges = await licenseCharges(licenseId);
  const license: MailLicense = { ...row.license, renewal_seats: row.renewalSeats, charges };
  if (isReminderKind(kind)) {
    // Checked again when sending: the customer may have opted out, cancelled or been refunded since.
    if (!row.reminders) return { skipped: "reminder e-mails are turned off" };
    const due = dueReminder(licenseFacts(license), new Date());
    if (!due || due.kind !== kind || (details.at && due.at.toISOString() !== details.at))
      return { skipped: "the reminder is no longer due" };
  }
  const common = {
    brand: mailBrand(),
    name: row.name ?? "",
    license: licenseView(license),
  };
  const input = await templateInput(kind, license, details);
  const mail = await customerEmail({ ...common, ...input });
  await getMailer().send({ to: row.email, ...mail });
  return { sent: kind, license: license.short_id };
}

async function templateInput(
  kind: CustomerMailKind,
  license: MailLicense,
  details: CustomerMailDetails,
): Promise<CustomerEmailFields> {
  switch (kind) {
    case "license-delivered":
      return { kind, tester: license.license_type === "tester", amount: money(details) };
    case "trial-ends-soon":
      return {
        kind,
        price: isPlanId(license.license_type)
          ? formatMoney(getPlan(license.license_type).priceCents, "USD")
          : nextChargeAmount(license),
        chargeOn: license.trial_ends_at ?? license.end_date,
      };
    case "renewal-coming":
      return { kind, amount: nextChargeAmount(license), renewsOn: license.end_date };
    case "renewed":
      return { kind, amount: money(details) };
    case "paid-plan-started":
      return { kind, amount: money(details), renewsOn: license.end_date };
    case "extended":
      return { kind, months: details.months ?? null };
    case "payment-failed":
      return { kind, amount: money(details), graceUntil: details.graceUntil ? new Date(details.graceUntil) : null };
    case "refund-processed":
      return {
        kind,
        amount:
          license.refund_amount != null
            ? formatMoney(license.refund_amount, details.currency ?? "USD")
            : money(details),
        charges: await refundedCharges(license),
      };
    case "subscription-cancelled":
      return { kind, endsOn: license.is_trial && license.trial_ends_at ? license.trial_ends_at : license.end_date };
    case "license-revoked":
      return { kind, chargeback: details.reason === "chargeback" };
  }
}
