import { Heading } from "@react-email/heading";
import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";
import { formatDate } from "~/domain/format-date";
import {
  ActionButton,
  composeEmail,
  EmailFrame,
  greeting,
  P,
  Small,
  type Brand,
  type EmailMessage,
} from "./layout.server";

/**
 * The frame of the account e-mails (confirmation, password reset, notices): the product's name,
 * the message, and a footer with the site's address and the support address. Kept short: one
 * purpose, at most one button, its link spelled out too.
 */
export function AccountLayout({ brand, preview, children }: { brand: Brand; preview: string; children: ReactNode }) {
  return (
    <EmailFrame preview={preview}>
      <Heading as="h1" style={{ margin: "0 0 24px", fontSize: "20px", color: "#1b1f24" }}>
        {brand.productName}
      </Heading>
      {children}
      <Text style={{ margin: "32px 0 0", fontSize: "12px", color: "#666666" }}>
        {brand.productName} · <Link href={brand.publicUrl}>{brand.publicUrl}</Link> · {brand.supportEmail}
      </Text>
    </EmailFrame>
  );
}

/** The button of an account e-mail; the plain text writes it "label: address". */
export function AccountAction({ label, url }: { label: string; url: string }) {
  return (
    <>
      <ActionButton url={url} label={label} textLine />
      <Small htmlOnly>
        If the button does not work, copy this link into your browser:
        <br />
        <Link href={url} style={{ wordBreak: "break-all" }}>
          {url}
        </Link>
      </Small>
    </>
  );
}

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

/**
 * A notice to an account's owner about something that just happened to the account (password,
 * sign-in methods, two-factor, deletion): "<product>: <what>", a greeting and a few paragraphs,
 * no button (nothing to confirm).
 */
export function accountNotice(
  brand: Brand,
  to: string,
  what: string,
  name: string,
  lines: ReactNode[],
): Promise<EmailMessage> {
  const subject = `${brand.productName}: ${what}`;
  return composeEmail(to, subject, <Notice brand={brand} subject={subject} name={name} lines={lines} />);
}

/** "Nov 23, 2026 at 21:58 UTC". */
export function dateAndTime(at: Date): string {
  return `${formatDate(at)} at ${at.toISOString().slice(11, 16)} UTC`;
}
