import { formatMoney } from "./billing";
import { firstChargeText } from "./trial-conversion";

/**
 * What /success may say about a transaction (decision 0037): a payment, its transaction id and its
 * license only when the transaction is the signed-in user's; a trial that started says so and when
 * the first charge comes; anything else (no id, an unknown or another user's id) gets a generic
 * thank-you that claims no payment.
 */

/** The license a transaction of the user paid for (or started as a trial), as the page shows it. */
export interface SuccessLicense {
  short_id: string;
  license_type: string;
  end_date: string;
  is_trial: boolean;
  /** Shown while it works; null once revoked or refunded. */
  license_key: string | null;
}

export type SuccessView =
  | { kind: "generic" }
  /** The user's own checkout, whose payment the provider has not confirmed to us yet. */
  | { kind: "confirming"; transactionId: string; trial: boolean }
  | {
      kind: "paid" | "trial-started";
      transactionId: string;
      amountCents: number;
      currency: string;
      license: SuccessLicense;
      /** A trial's first charge, when it still comes. */
      firstCharge: { at: string; cents: number; currency: string } | null;
      /**
       * A team's purchase (decision 0047): its name and seats. The license paid for is the team's
       * subscription, whose key opens nothing; the page links to /team instead of showing it.
       */
      team?: { name: string; seats: number } | null;
    };

export const SUCCESS_TEXTS = {
  genericHeading: "Thank you",
  genericLead:
    "Your licenses are on your licenses page and your billing history on the billing page. A checkout you have just completed shows there as soon as it is confirmed.",
  paidHeading: "Payment successful",
  paidLead: (amountCents: number, currency: string) =>
    `Thank you! We received ${formatMoney(amountCents, currency)} and your license is ready.`,
  teamLead: (amountCents: number, currency: string, team: { name: string; seats: number }) =>
    `Thank you! We received ${formatMoney(amountCents, currency)} for ${team.seats} seats of ${team.name}. Invite your team on your team page; each member gets their own seat license.`,
  confirmingLead:
    "Thank you! Your license appears here and on your licenses page as soon as the payment is confirmed, usually within a few seconds.",
  trialHeading: "Your free trial has started",
  trialLead: (firstCharge: { at: string; cents: number; currency: string } | null) =>
    firstCharge
      ? `Nothing was charged today. ${firstChargeText(firstCharge.at, firstCharge.cents, firstCharge.currency)}, unless you cancel the trial on your licenses page before then.`
      : "Nothing was charged today.",
  trialConfirmingHeading: "Your free trial is starting",
  trialConfirmingLead:
    "Your trial license appears here and on your licenses page as soon as it is confirmed, usually within a few seconds.",
} as const;

/** The page's heading and first sentence for a view. */
export function successWords(view: SuccessView): { heading: string; lead: string } {
  switch (view.kind) {
    case "generic":
      return { heading: SUCCESS_TEXTS.genericHeading, lead: SUCCESS_TEXTS.genericLead };
    case "confirming":
      return view.trial
        ? { heading: SUCCESS_TEXTS.trialConfirmingHeading, lead: SUCCESS_TEXTS.trialConfirmingLead }
        : { heading: SUCCESS_TEXTS.paidHeading, lead: SUCCESS_TEXTS.confirmingLead };
    case "trial-started":
      return { heading: SUCCESS_TEXTS.trialHeading, lead: SUCCESS_TEXTS.trialLead(view.firstCharge) };
    case "paid":
      return {
        heading: SUCCESS_TEXTS.paidHeading,
        lead: view.team
          ? SUCCESS_TEXTS.teamLead(view.amountCents, view.currency, view.team)
          : SUCCESS_TEXTS.paidLead(view.amountCents, view.currency),
      };
  }
}
