import { formatDate } from "~/domain/format-date";
import { TRIAL_DAYS } from "~/domain/plans";
import { TRIAL_TEXTS } from "~/domain/trial-conversion";
import { BILLING_PATH, LICENSES, MANAGE_SUBSCRIPTION, type CustomerEmailOf } from "./customer-email-types.server";
import { ActivationSteps } from "./license-emails.server";
import { EmailLayout, Facts, greeting, LicenseKey, P, SiteLink } from "./layout.server";

/**
 * The e-mail a trial starts with (decision 0037): the key, and plainly when the first charge comes, how
 * much it is and how to cancel before it; or, for a trial whose conversion is off, that nothing
 * will be charged.
 */
export function TrialStarted(input: CustomerEmailOf<"license-delivered">) {
  const { brand, license } = input;
  const { nextCharge } = license;
  const trialEnd = license.trialEndsAt ?? license.endDate;
  const rows: [string, string][] = [
    ["Plan", `${license.planName} (${TRIAL_DAYS}-day free trial)`],
    ["Starts", formatDate(license.startDate)],
    ["Trial ends", formatDate(trialEnd)],
    ["Charged today", "Nothing"],
  ];
  if (nextCharge)
    rows.push(["First charge", `${nextCharge.amount} on ${formatDate(nextCharge.at)}, unless you cancel before`]);
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your free trial has started"
      preview={
        nextCharge
          ? `Free until ${formatDate(trialEnd)}, then ${nextCharge.amount} on ${formatDate(nextCharge.at)}`
          : `Your ${brand.productName} trial runs until ${formatDate(trialEnd)}`
      }
      // A trial that does not convert has no subscription to manage: its licenses page is where it is.
      action={nextCharge ? MANAGE_SUBSCRIPTION : LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Thank you for trying {brand.productName}. Your license works now, free until {formatDate(trialEnd)}.
        {nextCharge
          ? ` Then your ${license.planName} plan starts: ${nextCharge.amount} is charged on ${formatDate(nextCharge.at)} and it renews automatically.`
          : " Nothing will be charged: the license ends with the trial."}
      </P>
      <Facts rows={rows} />
      {nextCharge ? <P>{TRIAL_TEXTS.howToCancel(trialEnd)}</P> : null}
      <LicenseKey value={license.licenseKey} />
      <ActivationSteps brand={brand} offline={false} />
      <P>
        Your billing history: <SiteLink brand={brand} path={BILLING_PATH} />
      </P>
    </EmailLayout>
  );
}

/**
 * The first paid period after a free trial (the trial ended, or the customer chose "Start paid plan
 * now"): what was charged, until when the plan runs and when it renews, the new key. Not "renewed":
 * nothing was renewed yet.
 */
export function PaidPlanStarted(input: CustomerEmailOf<"paid-plan-started">) {
  const { brand, license } = input;
  const renews = formatDate(license.nextCharge?.at ?? input.renewsOn);
  const rows: [string, string][] = [["Plan", license.planName]];
  if (input.amount) rows.push(["Charged", input.amount]);
  rows.push(["Next renewal", license.nextCharge ? `${renews} for ${license.nextCharge.amount}` : renews]);
  rows.push(["Status", license.stateLine]);
  return (
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="Your paid plan has started"
      preview={`${license.planName}${input.amount ? ` for ${input.amount}` : ""}, renews on ${renews}`}
      action={MANAGE_SUBSCRIPTION}
    >
      <P>{greeting(input.name)}</P>
      <P>
        Your free trial is over and your {license.planName} {brand.productName} plan has started
        {input.amount ? `: ${input.amount} was charged` : ""}. It runs until {formatDate(input.renewsOn)} and then
        renews automatically. Your license has a new key: paste it into {brand.productName} when it asks, or it picks up
        the change the next time it checks your license online.
      </P>
      <Facts rows={rows} />
      <LicenseKey value={license.licenseKey} />
      <P>
        Your receipt and billing history: <SiteLink brand={brand} path={BILLING_PATH} />
      </P>
    </EmailLayout>
  );
}
