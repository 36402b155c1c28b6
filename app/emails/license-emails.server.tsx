import { formatDate } from "~/domain/format-date";
import { TRIAL_DAYS } from "~/domain/plans";
import { BILLING_PATH, LICENSES, type CustomerEmailOf } from "./customer-email-types.server";
import { EmailLayout, Facts, greeting, LicenseKey, P, SiteLink, type Brand } from "./layout.server";

/**
 * The e-mails that deliver a license key: a new license (bought or given to a tester), a renewal,
 * an extension. Each shows the key whole, how to activate it and where the receipt is.
 */

/** How to activate; `offline` false for a trial, which has no offline data (it comes with a paid plan). */
export function ActivationSteps({ brand, offline = true }: { brand: Brand; offline?: boolean }) {
  return (
    <>
      <P>
        To activate: open {brand.productName} and paste this key when it asks for a license.{" "}
        {offline
          ? "To use it offline, first set your Windows username or computer name for this license on your licenses page."
          : "Offline use comes with a paid plan: a trial license checks online."}
      </P>
      <P>
        Not installed yet? Download {brand.productName}: <SiteLink brand={brand} path="/download" />
      </P>
    </>
  );
}

export function LicenseDelivered(input: CustomerEmailOf<"license-delivered">) {
  const { brand, license } = input;
  const { nextCharge } = license;
  const ends = formatDate(license.trialEndsAt ?? license.endDate);
  const rows: [string, string][] = [
    ["Plan", license.isTrial ? `${license.planName} (${TRIAL_DAYS}-day free trial)` : license.planName],
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

export function Renewed(input: CustomerEmailOf<"renewed" | "extended">) {
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
