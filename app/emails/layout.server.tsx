import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import { render, toPlainText } from "@react-email/render";
import type { ReactNode } from "react";

/**
 * The frame every customer e-mail shares (React Email): the product's name, the license's short
 * id, one button to the page the e-mail is about with its address spelled out, and the support
 * line. Server-only (`.server.tsx`): templates never enter the browser bundle.
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
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ margin: 0, padding: "24px", background: colors.page, fontFamily: "Segoe UI, Arial, sans-serif" }}>
        <Container style={{ maxWidth: "560px", background: "#ffffff", borderRadius: "12px", padding: "32px" }}>
          <Text style={{ margin: "0 0 8px", fontSize: "14px", fontWeight: 600, color: colors.link }}>
            {brand.productName}
          </Text>
          <Heading as="h1" style={{ margin: "0 0 8px", fontSize: "22px", color: colors.text }}>
            {heading}
          </Heading>
          <Text style={{ margin: "0 0 24px", fontSize: "13px", color: colors.muted }}>License {shortId}</Text>
          {children}
          <Section style={{ margin: "24px 0" }}>
            <Button
              href={url}
              style={{
                background: colors.accent,
                color: "#0e1a22",
                padding: "12px 20px",
                borderRadius: "8px",
                fontWeight: 600,
                textDecoration: "none",
              }}
            >
              {action.label}
            </Button>
          </Section>
          <Text style={{ margin: "0 0 16px", fontSize: "13px", color: colors.muted }}>
            If the button does not work, open this address: <Link href={url}>{url}</Link>
          </Text>
          <Hr />
          <Text style={{ margin: "16px 0 0", fontSize: "12px", color: colors.muted }}>
            {brand.productName} · <Link href={brand.publicUrl}>{brand.publicUrl}</Link> · Questions? Write to{" "}
            {brand.supportEmail} and mention {shortId}.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

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

/** The license key, whole and selectable (the spec's format: base64 IV, a colon, base64 ciphertext). */
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

/** The e-mail as HTML and as plain text (links written as "label address"; keys kept whole). */
export async function renderEmail(element: ReactNode): Promise<{ html: string; text: string }> {
  const html = await render(element);
  const text = toPlainText(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { hideLinkHrefIfSameAsText: true, linkBrackets: false } },
      { selector: "h1", options: { uppercase: false } },
    ],
  });
  return { html, text };
}
