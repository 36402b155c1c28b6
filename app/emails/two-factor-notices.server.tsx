import { RECOVERY_CODES_LOW } from "~/domain/recovery-codes";
import { accountNotice as notice, dateAndTime } from "./account-layout.server";
import { SiteLink, type Brand, type EmailMessage } from "./layout.server";

/**
 * Notices about an account's two-factor authentication (decision 0026): turned on, turned off, a
 * recovery code used to sign in, new recovery codes made. Each says when, what it changes, and
 * what to do if it was not the owner. No button: nothing to confirm.
 */

const PROFILE_TWO_FACTOR = "/profile#two-factor";

function NotYou({ brand, what }: { brand: Brand; what: string }) {
  return (
    <>
      If this was not you, {what}: reset your password at <SiteLink brand={brand} path="/forgot-password" /> and write
      to us at {brand.supportEmail} at once.
    </>
  );
}

export function twoFactorEnabledEmail(brand: Brand, to: string, name: string, at: Date): Promise<EmailMessage> {
  return notice(brand, to, "two-factor authentication is on", name, [
    `Two-factor authentication was turned on for your ${brand.productName} account on ${dateAndTime(at)}. Logging in now asks for the code from your authenticator app after your password.`,
    "Keep your recovery codes somewhere safe, apart from your phone: each signs you in once if you lose it.",
    <NotYou key="not-you" brand={brand} what="someone else knows your password" />,
  ]);
}

export function twoFactorDisabledEmail(brand: Brand, to: string, name: string, at: Date): Promise<EmailMessage> {
  return notice(brand, to, "two-factor authentication is off", name, [
    `Two-factor authentication was turned off for your ${brand.productName} account on ${dateAndTime(at)}. Logging in now asks only for your password, and your recovery codes no longer work.`,
    <>
      You can turn it on again on your profile: <SiteLink brand={brand} path={PROFILE_TWO_FACTOR} />.
    </>,
    <NotYou key="not-you" brand={brand} what="someone else can log in to your account" />,
  ]);
}

/** A recovery code signed in: when, from which address, and how many codes are left. */
export function recoveryCodeUsedEmail(
  brand: Brand,
  to: string,
  name: string,
  { at, ipAddress, left }: { at: Date; ipAddress: string | null; left: number },
): Promise<EmailMessage> {
  const from = ipAddress ? ` from the address ${ipAddress}` : "";
  const remaining =
    left === 0
      ? "That was your last recovery code: none are left."
      : `It is used up now; ${left} recovery ${left === 1 ? "code is" : "codes are"} left.`;
  return notice(brand, to, "a recovery code was used to log in", name, [
    `A recovery code was used instead of the code from your authenticator app to log in to your ${brand.productName} account on ${dateAndTime(at)}${from}. ${remaining}`,
    <>
      {left <= RECOVERY_CODES_LOW ? "Make new recovery codes" : "If you lost your phone, make new recovery codes"} on
      your profile (your password is needed; the old codes stop working):{" "}
      <SiteLink brand={brand} path={PROFILE_TWO_FACTOR} />.
    </>,
    <NotYou key="not-you" brand={brand} what="someone has your password and one of your recovery codes" />,
  ]);
}

export function recoveryCodesRegeneratedEmail(brand: Brand, to: string, name: string, at: Date): Promise<EmailMessage> {
  return notice(brand, to, "new recovery codes were made", name, [
    `New two-factor recovery codes were made for your ${brand.productName} account on ${dateAndTime(at)}. Your previous recovery codes no longer work.`,
    <NotYou key="not-you" brand={brand} what="someone else is signed in to your account" />,
  ]);
}
