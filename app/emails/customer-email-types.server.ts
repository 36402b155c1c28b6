import type { Brand, EmailAction } from "./layout.server";

/**
 * What the customer e-mails about a license (decision 0022) read: the license, and what each kind adds.
 * The templates are in license-emails, reminder-emails and billing-emails; customer-emails picks
 * one by kind and gives it its subject.
 */

/** What every template reads of the license. */
export interface LicenseView {
  shortId: string;
  /** "Yearly", "Tester", … */
  planName: string;
  startDate: Date;
  endDate: Date;
  isTrial: boolean;
  trialEndsAt: Date | null;
  licenseKey: string;
  /** The license's status line when the e-mail is composed (domain/license-state.ts): the card's words. */
  stateLine: string;
  /** The next charge (a renewal, a trial's first charge) and its amount ("$9.00"), when one is coming. */
  nextCharge: { at: Date; amount: string } | null;
  /** What the license keeps after its subscription ends (decision 0070), the card's sentence; absent or null when nothing. */
  keeps?: string | null;
}

/** What each kind adds to the shared fields. */
export type CustomerEmailFields =
  | { kind: "license-delivered"; tester: boolean; amount: string | null }
  | { kind: "trial-ends-soon"; price: string; chargeOn: Date }
  | { kind: "renewal-coming"; amount: string; renewsOn: Date }
  | { kind: "renewed"; amount: string | null }
  /** The first paid period after a free trial (the trial ended, or "Start paid plan now"): charged, renews on. */
  | { kind: "paid-plan-started"; amount: string | null; renewsOn: Date }
  | { kind: "extended"; months: number | null }
  | { kind: "payment-failed"; amount: string | null; graceUntil: Date | null }
  | {
      kind: "refund-processed";
      amount: string | null;
      /**
       * Each refunded charge of the license (decision 0036): "Extension of a Monthly license, Jun 2, 2026" →
       * "paid $9.00, refunded $8.55".
       */
      charges?: [string, string][];
    }
  | { kind: "subscription-cancelled"; endsOn: Date }
  /** Revoked by the team, or (chargeback) because a payment was disputed with the bank and charged back. */
  | { kind: "license-revoked"; chargeback?: boolean };

export type CustomerEmailInput = { brand: Brand; name: string; license: LicenseView } & CustomerEmailFields;

/** The input of the template of one kind. */
export type CustomerEmailOf<K extends CustomerEmailInput["kind"]> = Extract<CustomerEmailInput, { kind: K }>;

export const LICENSES: EmailAction = { label: "Open my licenses", path: "/licenses" };
export const MANAGE_SUBSCRIPTION: EmailAction = { label: "Manage my subscription", path: "/licenses" };
export const BILLING_PATH = "/billing";
