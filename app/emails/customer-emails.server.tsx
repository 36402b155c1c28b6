import type { ReactElement } from "react";
import type { CustomerMailKind } from "~/domain/customer-mail";
import { PaymentFailed, LicenseRevoked, RefundProcessed, SubscriptionCancelled } from "./billing-emails.server";
import type { CustomerEmailInput } from "./customer-email-types.server";
import { renderEmail } from "./layout.server";
import { LicenseDelivered, Renewed } from "./license-emails.server";
import { RenewalComing, TrialEndsSoon } from "./reminder-emails.server";
import { PaidPlanStarted, TrialStarted } from "./trial-emails.server";

/**
 * The customer e-mails about a license (decision 0022), one template per kind. Each names the product
 * and the license's short id, and links to the page it is about. A license key appears only in the
 * e-mails that deliver one (delivered, renewed, extended); no password or token ever does.
 */

export interface CustomerEmail {
  subject: string;
  html: string;
  text: string;
}

const SUBJECTS: Record<CustomerMailKind, (input: CustomerEmailInput) => string> = {
  "license-delivered": ({ brand, license }) => `Your ${brand.productName} license ${license.shortId}`,
  "trial-ends-soon": ({ brand, license }) => `Your ${brand.productName} trial ends soon (${license.shortId})`,
  "renewal-coming": ({ brand, license }) => `Your ${brand.productName} subscription renews soon (${license.shortId})`,
  renewed: ({ brand, license }) => `Your ${brand.productName} license ${license.shortId} was renewed`,
  "paid-plan-started": ({ brand, license }) => `Your ${brand.productName} paid plan has started (${license.shortId})`,
  extended: ({ brand, license }) => `Your ${brand.productName} license ${license.shortId} was extended`,
  "payment-failed": ({ brand, license }) => `Payment failed for your ${brand.productName} license ${license.shortId}`,
  "refund-processed": ({ brand, license }) => `Your ${brand.productName} refund was processed (${license.shortId})`,
  "subscription-cancelled": ({ brand, license }) =>
    `Your ${brand.productName} subscription was cancelled (${license.shortId})`,
  "license-revoked": ({ brand, license }) => `Your ${brand.productName} license ${license.shortId} was revoked`,
};

function template(input: CustomerEmailInput): ReactElement {
  switch (input.kind) {
    case "license-delivered":
      return input.license.isTrial && !input.tester ? <TrialStarted {...input} /> : <LicenseDelivered {...input} />;
    case "trial-ends-soon":
      return <TrialEndsSoon {...input} />;
    case "renewal-coming":
      return <RenewalComing {...input} />;
    case "renewed":
    case "extended":
      return <Renewed {...input} />;
    case "paid-plan-started":
      return <PaidPlanStarted {...input} />;
    case "payment-failed":
      return <PaymentFailed {...input} />;
    case "refund-processed":
      return <RefundProcessed {...input} />;
    case "subscription-cancelled":
      return <SubscriptionCancelled {...input} />;
    case "license-revoked":
      return <LicenseRevoked {...input} />;
  }
}

/** One customer e-mail: its subject, HTML and plain text. */
export async function customerEmail(input: CustomerEmailInput): Promise<CustomerEmail> {
  return { subject: SUBJECTS[input.kind](input), ...(await renderEmail(template(input))) };
}
