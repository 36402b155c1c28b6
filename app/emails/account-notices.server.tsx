import { Link } from "@react-email/components";
import type { ReactNode } from "react";
import { formatDate } from "~/domain/format-date";
import { AccountLayout } from "./account-layout.server";
import { composeEmail, greeting, P, siteUrl, type Brand, type EmailMessage } from "./layout.server";

/**
 * Notices to an account's owner about something that just happened to the account: the password
 * changed, a sign-in provider was connected, the account was deleted. Each says what to do if it
 * was not them. No button: nothing to confirm.
 */

function Notice({ brand, subject, name, lines }: { brand: Brand; subject: string; name: string; lines: ReactNode[] }) {
  return (
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name)}</P>
      {lines.map((line, i) => (
        <P key={i}>{line}</P>
      ))}
    </AccountLayout>
  );
}

const notice = (brand: Brand, to: string, what: string, name: string, lines: ReactNode[]) => {
  const subject = `${brand.productName}: ${what}`;
  return composeEmail(to, subject, <Notice brand={brand} subject={subject} name={name} lines={lines} />);
};

function ForgotPasswordLink({ brand }: { brand: Brand }) {
  const url = siteUrl(brand, "/forgot-password");
  return <Link href={url}>{url}</Link>;
}

/** "Nov 23, 2026 at 21:58 UTC". */
function dateAndTime(at: Date): string {
  return `${formatDate(at)} at ${at.toISOString().slice(11, 16)} UTC`;
}

export function passwordChangedEmail(brand: Brand, to: string, name: string): Promise<EmailMessage> {
  return notice(brand, to, "your password was changed", name, [
    "The password of your account was just changed, and every other signed-in session was signed out.",
    <>
      If you did not do this, reset your password at <ForgotPasswordLink brand={brand} /> and contact us at{" "}
      {brand.supportEmail}.
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
    `${provider} was connected to your ${brand.productName} account on ${dateAndTime(at)}. Signing in with ${provider} now opens your account.`,
    <>
      If it was not you, someone else can sign in to your account: write to us at {brand.supportEmail} at once so we
      disconnect {provider}, and reset your password at <ForgotPasswordLink brand={brand} />.
    </>,
  ]);
}

export function accountDeletedEmail(brand: Brand, to: string, name: string): Promise<EmailMessage> {
  return notice(brand, to, "your account was deleted", name, [
    "Your account was deleted as you asked. Your profile, sign-in methods and sessions are gone.",
    "Records of licenses and payments that we must keep for accounting are kept without your name or e-mail address.",
    `Questions? Write to ${brand.supportEmail}.`,
  ]);
}
