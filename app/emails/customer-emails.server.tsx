import type { ReactElement } from "react";
import type { CustomerMailKind } from "~/domain/customer-mail";
import { formatDate } from "~/domain/format-date";
import {
  EmailLayout,
  Facts,
  LicenseKey,
  P,
  renderEmail,
  SiteLink,
  type Brand,
  type EmailAction,
} from "./layout.server";

/**
 * The customer e-mails about a license (issue 14), one template per kind. Each names the product
 * and the license's short id, and links to the page it is about. A license key appears only in the
 * e-mails that deliver one (delivered, renewed, extended); no password or token ever does.
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
}

/** What each kind adds to the shared fields. */
export type CustomerEmailFields =
  | { kind: "license-delivered"; tester: boolean; amount: string | null }
  | { kind: "trial-ends-soon"; price: string; chargeOn: Date }
  | { kind: "renewal-coming"; amount: string; renewsOn: Date }
  | { kind: "renewed"; amount: string | null }
  | { kind: "extended"; months: number | null }
  | { kind: "payment-failed"; amount: string | null; graceUntil: Date | null }
  | { kind: "refund-processed"; amount: string | null }
  | { kind: "subscription-cancelled"; endsOn: Date }
  | { kind: "license-revoked" };

export type CustomerEmailInput = { brand: Brand; name: string; license: LicenseView } & CustomerEmailFields;

export interface CustomerEmail {
  subject: string;
  html: string;
  text: string;
}

const LICENSES: EmailAction = { label: "Open my licenses", path: "/licenses" };
const BILLING_PATH = "/billing";

const greeting = (name: string) => `Hello ${name.trim() || "there"},`;

function ActivationSteps({ brand }: { brand: Brand }) {
  return (
    <>
      <P>
        To activate: open {brand.productName} and paste this key when it asks for a license. To use it offline, first
        set your Windows username or computer name for this license on your licenses page.
      </P>
      <P>
        Not installed yet? Download {brand.productName}: <SiteLink brand={brand} path="/download" />
      </P>
    </>
  );
}

function LicenseDelivered(input: Extract<CustomerEmailInput, { kind: "license-delivered" }>) {
  const { brand, license } = input;
  const { nextCharge } = license;
  const ends = formatDate(license.trialEndsAt ?? license.endDate);
  const rows: [string, string][] = [
    ["Plan", license.isTrial ? `${license.planName} (7-day free trial)` : license.planName],
    ["Starts", formatDate(license.startDate)],
    [
      license.isTrial ? "Trial ends" : input.tester ? "Ends" : "Renews",
      !license.isTrial && nextCharge ? `${ends} for ${nextCharge.amount}` : ends,
    ],
  ];
  if (license.isTrial && nextCharge)
    rows.push(["First charge", `${nextCharge.amount} on ${formatDate(nextCharge.at)}, unless you cancel before`]);
  if (input.amount) rows.push(["Paid", input.amount]);
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your license is ready"
      preview={`Your ${brand.productName} license ${license.shortId} and its key`}
      action={LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        {input.tester
          ? `You have been given a ${brand.productName} tester license. Thank you for helping us test.`
          : `Thank you for buying ${brand.productName}. Your license is active now.`}
      </P>
      <Facts rows={rows} />
      <LicenseKey value={license.licenseKey} />
      <ActivationSteps brand={brand} />
      {input.tester ? null : (
        <P>
          Your invoice and billing history: <SiteLink brand={brand} path={BILLING_PATH} />
        </P>
      )}
    </EmailLayout>
  );
}

function TrialEndsSoon(input: Extract<CustomerEmailInput, { kind: "trial-ends-soon" }>) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your trial ends soon"
      preview={`Your ${brand.productName} trial ends on ${formatDate(input.chargeOn)}`}
      action={{ label: "Manage my subscription", path: "/licenses" }}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Your free trial of {brand.productName} ends on {formatDate(input.chargeOn)}. Then your {license.planName}{" "}
        subscription starts and you will be charged {input.price}.
      </P>
      <Facts
        rows={[
          ["Plan", license.planName],
          ["First charge", `${input.price} on ${formatDate(input.chargeOn)}`],
        ]}
      />
      <P>
        Nothing to do if you want to keep {brand.productName}. To stop before you are charged, open your licenses page
        and choose Cancel Subscription before {formatDate(input.chargeOn)}: the license then ends with the trial.
      </P>
    </EmailLayout>
  );
}

function RenewalComing(input: Extract<CustomerEmailInput, { kind: "renewal-coming" }>) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your subscription renews soon"
      preview={`${license.planName} renews on ${formatDate(input.renewsOn)} for ${input.amount}`}
      action={{ label: "Manage my subscription", path: "/licenses" }}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Your {license.planName} {brand.productName} subscription renews on {formatDate(input.renewsOn)} and you will be
        charged {input.amount}.
      </P>
      <Facts
        rows={[
          ["Plan", license.planName],
          ["Renews", formatDate(input.renewsOn)],
          ["Amount", input.amount],
        ]}
      />
      <P>
        Nothing to do if you want to keep it. To stop the renewal, open your licenses page and choose Cancel
        Subscription before {formatDate(input.renewsOn)}: your license keeps working until then.
      </P>
    </EmailLayout>
  );
}

function Renewed(input: Extract<CustomerEmailInput, { kind: "renewed" | "extended" }>) {
  const { brand, license } = input;
  const extended = input.kind === "extended";
  const rows: [string, string][] = [
    ["Plan", license.planName],
    ["Valid until", formatDate(license.endDate)],
    ["Status", license.stateLine],
  ];
  if (input.kind === "renewed" && input.amount) rows.push(["Paid", input.amount]);
  if (input.kind === "extended" && input.months)
    rows.push(["Added", `${input.months} month${input.months === 1 ? "" : "s"}`]);
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading={extended ? "Your license was extended" : "Your license was renewed"}
      preview={`${license.shortId} now runs until ${formatDate(license.endDate)}`}
      action={LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        {extended ? "Thank you for extending" : "Thank you for renewing"} {brand.productName}. Your license now runs
        until {formatDate(license.endDate)} and has a new key: paste it into {brand.productName} when it asks, or it
        picks up the change the next time it checks your license online.
      </P>
      <Facts rows={rows} />
      <LicenseKey value={license.licenseKey} />
      <P>
        Your receipt and billing history: <SiteLink brand={brand} path={BILLING_PATH} />
      </P>
    </EmailLayout>
  );
}

function PaymentFailed(input: Extract<CustomerEmailInput, { kind: "payment-failed" }>) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your payment did not go through"
      preview={`Update your payment method to keep ${brand.productName}`}
      action={{ label: "Update payment method", path: "/licenses" }}
    >
      <P>{greeting(input.name)}</P>
      <P>
        We could not take the payment{input.amount ? ` of ${input.amount}` : ""} for your {license.planName}{" "}
        {brand.productName} subscription. Please update your payment method on your licenses page.
      </P>
      <P>
        What happens next: the payment is retried automatically over the next days, and as soon as one succeeds your
        license renews as usual.
        {input.graceUntil
          ? ` Your license keeps working until ${formatDate(input.graceUntil)}; if no payment succeeds by then, the subscription is cancelled.`
          : " If no payment succeeds, the subscription is cancelled and the license ends."}
      </P>
    </EmailLayout>
  );
}

function RefundProcessed(input: Extract<CustomerEmailInput, { kind: "refund-processed" }>) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your refund was processed"
      preview={`Refund for ${license.shortId}${input.amount ? `: ${input.amount}` : ""}`}
      action={{ label: "View billing history", path: BILLING_PATH }}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Your refund{input.amount ? ` of ${input.amount}` : ""} for the {license.planName} license was approved. It goes
        back to the payment method you paid with; depending on your bank it can take up to 10 business days to appear.
      </P>
      <P>The license and its key no longer work, and the subscription will not renew.</P>
    </EmailLayout>
  );
}

function SubscriptionCancelled(input: Extract<CustomerEmailInput, { kind: "subscription-cancelled" }>) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your subscription was cancelled"
      preview={`${license.shortId} ends on ${formatDate(input.endsOn)}`}
      action={{ label: "Manage my subscription", path: "/licenses" }}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Your {license.planName} {brand.productName} subscription was cancelled and will not renew. Your license keeps
        working until it ends on {formatDate(input.endsOn)}; you will not be charged again.
      </P>
      <P>Changed your mind? Turn automatic renewal back on from your licenses page before that date.</P>
    </EmailLayout>
  );
}

function LicenseRevoked(input: Extract<CustomerEmailInput, { kind: "license-revoked" }>) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your license was revoked"
      preview={`${brand.productName} license ${license.shortId} was revoked`}
      action={LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Your {license.planName} {brand.productName} license was revoked by our team. Its key no longer activates{" "}
        {brand.productName}, and any subscription for it will not renew.
      </P>
      <P>
        If you think this is a mistake, reply to {brand.supportEmail} and mention {license.shortId}.
      </P>
    </EmailLayout>
  );
}

const SUBJECTS: Record<CustomerMailKind, (input: CustomerEmailInput) => string> = {
  "license-delivered": ({ brand, license }) => `Your ${brand.productName} license ${license.shortId}`,
  "trial-ends-soon": ({ brand, license }) => `Your ${brand.productName} trial ends soon (${license.shortId})`,
  "renewal-coming": ({ brand, license }) => `Your ${brand.productName} subscription renews soon (${license.shortId})`,
  renewed: ({ brand, license }) => `Your ${brand.productName} license ${license.shortId} was renewed`,
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
      return <LicenseDelivered {...input} />;
    case "trial-ends-soon":
      return <TrialEndsSoon {...input} />;
    case "renewal-coming":
      return <RenewalComing {...input} />;
    case "renewed":
    case "extended":
      return <Renewed {...input} />;
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
