import { accountNotice as notice, dateAndTime } from "./account-layout.server";
import { SiteLink, type Brand, type EmailMessage } from "./layout.server";

/**
 * What a customer is told when support acted on their account (decision 0038): what changed, when,
 * and where to look. Renewal cancellations reuse the customer's own "subscription cancelled"
 * e-mail; these cover what the customer has no e-mail of their own for.
 */

export function renewalResumedBySupportEmail(
  brand: Brand,
  to: string,
  name: string,
  { shortId, renewsOn }: { shortId: string; renewsOn: Date },
): Promise<EmailMessage> {
  return notice(brand, to, "automatic renewal is on again", name, [
    `As you asked our support, automatic renewal of your license ${shortId} is on again: it renews on ${dateAndTime(renewsOn)}.`,
    <>
      You can turn it off yourself at any time on <SiteLink brand={brand} path="/licenses" />.
    </>,
  ]);
}

/** To the address being replaced: support started a change to another address. */
export function emailChangeNoticeEmail(
  brand: Brand,
  to: string,
  name: string,
  { newEmail, at, immediate }: { newEmail: string; at: Date; immediate: boolean },
): Promise<EmailMessage> {
  return notice(brand, to, "your e-mail address is being changed", name, [
    immediate
      ? `On ${dateAndTime(at)} our support changed the e-mail address of your ${brand.productName} account to ${newEmail}, as you asked. A confirmation link went to the new address.`
      : `On ${dateAndTime(at)} our support asked to change the e-mail address of your ${brand.productName} account to ${newEmail}, as you asked. The change takes effect once the link sent to the new address is followed; until then this address stays in use.`,
    `If you did not ask for this, write to us at ${brand.supportEmail} at once.`,
  ]);
}

export function twoFactorResetEmail(brand: Brand, to: string, name: string, at: Date): Promise<EmailMessage> {
  return notice(brand, to, "two-factor authentication was reset", name, [
    `On ${dateAndTime(at)} our support turned off two-factor authentication for your ${brand.productName} account after checking your identity, as you asked. Logging in now asks only for your password, and your old recovery codes no longer work.`,
    <>
      Turn it on again with your new phone on your profile: <SiteLink brand={brand} path="/profile#two-factor" />.
    </>,
    `If you did not ask for this, reset your password at once and write to us at ${brand.supportEmail}.`,
  ]);
}
