// Each component from its own package: the @react-email/components index also loads the code-block
// (Prism), Markdown and Tailwind components, half a second of every server start (decision 0081).
import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { render, toPlainText } from "@react-email/render";
import type { ReactNode } from "react";

/**
 * What every e-mail is made of (React Email): the frame, the button, paragraphs, facts, the license
 * key, and the rendering to HTML and plain text. Every e-mail the site sends is a template under
 * app/emails/ made with `composeEmail` (or `renderEmail`). Server-only (`.server.tsx`): templates
 * never enter the browser bundle.
 */

export interface Brand {
  productName: string;
  /** Absolute site address without a trailing slash (PUBLIC_URL). */
  publicUrl: string;
  supportEmail: string;
}

export interface EmailAction {
  label: string;
  /** A site path ("/licenses"): made absolute from the brand's address. */
  path: string;
}

const colors = { text: "#1b1f24", muted: "#555b64", accent: "#3ec7d9", link: "#0b7285", page: "#f4f5f7" };

export function siteUrl(brand: Brand, path: string): string {
  return `${brand.publicUrl}${path}`;
}

/**
 * The page every e-mail is drawn on: the white card on a grey page, with the preview line inbox
 * lists show. What goes on the card is the family's (EmailLayout below, the account e-mails'
 * AccountLayout).
 */
export function EmailFrame({ preview, children }: { preview: string; children: ReactNode }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ margin: 0, padding: "24px", background: colors.page, fontFamily: "Segoe UI, Arial, sans-serif" }}>
        <Container style={{ maxWidth: "560px", background: "#ffffff", borderRadius: "12px", padding: "32px" }}>
          {children}
        </Container>
      </Body>
    </Html>
  );
}

/**
 * The one button of an e-mail. `textLine` writes it in the plain text as "label: address" (the
 * account e-mails); without it the plain text shows "label address".
 */
export function ActionButton({ url, label, textLine = false }: { url: string; label: string; textLine?: boolean }) {
  return (
    <Section style={{ margin: "24px 0" }}>
      <Button
        href={url}
        data-text-line={textLine ? `${label}: ${url}` : undefined}
        style={{
          background: colors.accent,
          color: "#0e1a22",
          padding: "12px 20px",
          borderRadius: "8px",
          fontWeight: 600,
          textDecoration: "none",
        }}
      >
        {label}
      </Button>
    </Section>
  );
}

/** A small grey line (an address spelled out, the footer); `htmlOnly` leaves it out of the plain text. */
export function Small({ children, htmlOnly = false }: { children: ReactNode; htmlOnly?: boolean }) {
  return (
    <Text
      data-skip-in-text={htmlOnly ? "true" : undefined}
      style={{ margin: "0 0 16px", fontSize: "13px", color: colors.muted }}
    >
      {children}
    </Text>
  );
}

/** A customer e-mail about a license: its short id under the heading, the button, the support line. */
export function EmailLayout({
  brand,
  preview,
  heading,
  shortId,
  action,
  children,
}: {
  brand: Brand;
  preview: string;
  heading: string;
  shortId: string;
  action: EmailAction;
  children: ReactNode;
}) {
  const url = siteUrl(brand, action.path);
  return (
    <EmailFrame preview={preview}>
      <Text style={{ margin: "0 0 8px", fontSize: "14px", fontWeight: 600, color: colors.link }}>
        {brand.productName}
      </Text>
      <Heading as="h1" style={{ margin: "0 0 8px", fontSize: "22px", color: colors.text }}>
        {heading}
      </Heading>
      <Text style={{ margin: "0 0 24px", fontSize: "13px", color: colors.muted }}>License {shortId}</Text>
      {children}
      <ActionButton url={url} label={action.label} />
      <Small>
        If the button does not work, open this address: <Link href={url}>{url}</Link>
      </Small>
      <Hr />
      <Text style={{ margin: "16px 0 0", fontSize: "12px", color: colors.muted }}>
        {brand.productName} · <Link href={brand.publicUrl}>{brand.publicUrl}</Link> · Questions? Write to{" "}
        {brand.supportEmail} and mention {shortId}.
      </Text>
    </EmailFrame>
  );
}

/** A site address written out as a link (the plain text shows the address once). */
export function SiteLink({ brand, path }: { brand: Brand; path: string }) {
  const url = siteUrl(brand, path);
  return <Link href={url}>{url}</Link>;
}

/** "Hello Ada," — or "Hello there," when the account has no name. */
export const greeting = (name: string) => `Hello ${name.trim() || "there"},`;

/** A paragraph of an e-mail. */
export function P({ children }: { children: ReactNode }) {
  return (
    <Text style={{ margin: "0 0 16px", fontSize: "15px", lineHeight: "1.5", color: colors.text }}>{children}</Text>
  );
}

/** Label/value lines (plan, dates, amounts): one line each, also in the plain text. */
export function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <Section style={{ margin: "0 0 16px", padding: "12px 16px", background: colors.page, borderRadius: "8px" }}>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ margin: "4px 0", fontSize: "14px", color: colors.text }}>
          <strong>{label}:</strong> {value}
        </Text>
      ))}
    </Section>
  );
}

/** The license key, whole and selectable (its format: base64 IV, a colon, base64 ciphertext). */
export function LicenseKey({ value }: { value: string }) {
  return (
    <Section style={{ margin: "0 0 16px" }}>
      <Text style={{ margin: "0 0 4px", fontSize: "14px", fontWeight: 600, color: colors.text }}>Your license key</Text>
      <Text
        style={{
          margin: 0,
          padding: "12px",
          background: colors.page,
          borderRadius: "8px",
          fontFamily: "Consolas, Menlo, monospace",
          fontSize: "13px",
          wordBreak: "break-all",
          color: colors.text,
        }}
      >
        {value}
      </Text>
    </Section>
  );
}

/** An e-mail ready for the mailer: the address, the subject, the HTML and the plain text. */
export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** What a plain-text formatter writes with (html-to-text's BlockTextBuilder, the part used here). */
interface TextBuilder {
  openBlock: (options: { leadingLineBreaks: number }) => void;
  addLiteral: (text: string) => void;
  closeBlock: (options: { trailingLineBreaks: number }) => void;
}

/**
 * The e-mail as HTML and as plain text (links written as "label address"; keys kept whole; a button
 * with a text line as "label: address"; parts marked data-skip-in-text left out).
 */
export async function renderEmail(element: ReactNode): Promise<{ html: string; text: string }> {
  const html = await render(element);
  const text = toPlainText(html, {
    wordwrap: false,
    formatters: {
      textLine: (elem: { attribs?: Record<string, string> }, _walk: unknown, builder: TextBuilder) => {
        builder.openBlock({ leadingLineBreaks: 2 });
        builder.addLiteral(String(elem.attribs?.["data-text-line"] ?? ""));
        builder.closeBlock({ trailingLineBreaks: 2 });
      },
    },
    selectors: [
      { selector: "a", options: { hideLinkHrefIfSameAsText: true, linkBrackets: false } },
      { selector: "a[data-text-line]", format: "textLine" },
      { selector: "h1", options: { uppercase: false } },
    ],
  });
  return { html, text };
}

/** The one way an e-mail is made: a template rendered to HTML and plain text, with its subject. */
export async function composeEmail(to: string, subject: string, element: ReactNode): Promise<EmailMessage> {
  return { to, subject, ...(await renderEmail(element)) };
}
