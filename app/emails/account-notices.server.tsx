import { accountNotice as notice, dateAndTime } from "./account-layout.server";
import { SiteLink, type Brand, type EmailMessage } from "./layout.server";

/**
 * Notices to an account's owner about something that just happened to the account: the password
 * changed, a sign-in provider was connected, the account was deleted. Each says what to do if it
 * was not them. No button: nothing to confirm. (Two-factor notices: two-factor-notices.server.tsx.)
 */

/** A renewing subscription that the account's deletion cancelled, as the e-mail names it. */
export interface CancelledSubscription {
  planName: string;
  shortId: string;
}

export function passwordChangedEmail(brand: Brand, to: string, name: string): Promise<EmailMessage> {
  return notice(brand, to, "your password was changed", name, [
    "The password of your account was just changed, and every other signed-in session was signed out.",
    <>
      If you did not do this, reset your password at <SiteLink brand={brand} path="/forgot-password" /> and contact us
      at {brand.supportEmail}.
    </>,
  ]);
}

/** A GitHub / Google sign-in was connected to an account that already existed. */
export function providerConnectedEmail(
  brand: Brand,
  to: string,
  name: string,
  provider: string,
  at: Date,
): Promise<EmailMessage> {
  return notice(brand, to, `${provider} was connected to your account`, name, [
    `${provider} was connected to your ${brand.productName} account on ${dateAndTime(at)}. Logging in with ${provider} now opens your account.`,
    <>
      If it was not you, someone else can log in to your account: write to us at {brand.supportEmail} at once so we
      disconnect {provider}, and reset your password at <SiteLink brand={brand} path="/forgot-password" />.
    </>,
  ]);
}

/** The account was deleted; names each subscription the deletion cancelled (plan and short id). */
export function accountDeletedEmail(
  brand: Brand,
  to: string,
  name: string,
  cancelled: readonly CancelledSubscription[],
): Promise<EmailMessage> {
  const names = cancelled.map((s) => `${s.planName} (${s.shortId})`);
  return notice(brand, to, "your account was deleted", name, [
    "Your account was deleted as you asked. Your profile, login methods and sessions are gone.",
    names.length > 0
      ? `We cancelled ${names.length === 1 ? "your subscription" : `your ${names.length} subscriptions`}: ${names.join(", ")}. ${names.length === 1 ? "It will" : "They will"} not renew, and you will not be charged again.`
      : "You had no renewing subscriptions, so nothing needed cancelling.",
    "Records of licenses and payments that we must keep for accounting are kept without your name or e-mail address.",
    `Questions? Write to ${brand.supportEmail}.`,
  ]);
}
