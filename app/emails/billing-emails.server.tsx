import { formatDate } from "~/domain/format-date";
import { BILLING_PATH, LICENSES, MANAGE_SUBSCRIPTION, type CustomerEmailOf } from "./customer-email-types.server";
import { EmailLayout, Facts, greeting, P } from "./layout.server";

/**
 * The e-mails about a subscription or license that stops or may stop: a failed payment, a refund,
 * a cancellation, a revocation. Each says what happens next and what the customer can do.
 */

export function PaymentFailed(input: CustomerEmailOf<"payment-failed">) {
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

export function RefundProcessed(input: CustomerEmailOf<"refund-processed">) {
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
      {input.charges && input.charges.length > 0 ? <Facts rows={input.charges} /> : null}
      <P>The license and its key no longer work, and the subscription will not renew.</P>
    </EmailLayout>
  );
}

export function SubscriptionCancelled(input: CustomerEmailOf<"subscription-cancelled">) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your subscription was cancelled"
      preview={`${license.shortId} ends on ${formatDate(input.endsOn)}`}
      action={MANAGE_SUBSCRIPTION}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Your {license.planName} {brand.productName} subscription was cancelled and will not renew. Your license keeps
        working until it ends on {formatDate(input.endsOn)}; you will not be charged again.
      </P>
      {license.keeps ? <P>{license.keeps}</P> : null}
      <P>Changed your mind? Turn automatic renewal back on from your licenses page before that date.</P>
    </EmailLayout>
  );
}

export function LicenseRevoked(input: CustomerEmailOf<"license-revoked">) {
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
      {input.chargeback ? (
        <P>
          A payment for your {license.planName} {brand.productName} license was disputed with your bank, and the bank
          returned it to you (a chargeback). The license was revoked: its key no longer activates {brand.productName},
          and its subscription will not renew. If the dispute is settled in our favour, the license works again.
        </P>
      ) : (
        <P>
          Your {license.planName} {brand.productName} license was revoked by our team. Its key no longer activates{" "}
          {brand.productName}, and any subscription for it will not renew.
        </P>
      )}
      <P>
        If you think this is a mistake, reply to {brand.supportEmail} and mention {license.shortId}.
      </P>
    </EmailLayout>
  );
}
