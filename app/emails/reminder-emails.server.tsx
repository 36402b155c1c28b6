import { formatDate } from "~/domain/format-date";
import { RENEWAL_TEXTS } from "~/domain/license-texts";
import { TRIAL_TEXTS } from "~/domain/trial-conversion";
import { MANAGE_SUBSCRIPTION, type CustomerEmailOf } from "./customer-email-types.server";
import { EmailLayout, Facts, greeting, P } from "./layout.server";

/** The reminders before money is taken: a trial ends soon, a subscription renews soon. */

export function TrialEndsSoon(input: CustomerEmailOf<"trial-ends-soon">) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your trial ends soon"
      preview={`Your ${brand.productName} trial ends on ${formatDate(input.chargeOn)}`}
      action={MANAGE_SUBSCRIPTION}
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
        Nothing to do if you want to keep {brand.productName}. {TRIAL_TEXTS.howToCancel(input.chargeOn)}
      </P>
    </EmailLayout>
  );
}

export function RenewalComing(input: CustomerEmailOf<"renewal-coming">) {
  const { brand, license } = input;
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your subscription renews soon"
      preview={`${license.planName} renews on ${formatDate(input.renewsOn)} for ${input.amount}`}
      action={MANAGE_SUBSCRIPTION}
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
      <P>Nothing to do if you want to keep it. {RENEWAL_TEXTS.howToCancel(input.renewsOn)}</P>
      {license.keeps ? <P>{license.keeps}</P> : null}
    </EmailLayout>
  );
}
