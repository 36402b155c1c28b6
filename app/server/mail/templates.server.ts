import type { MailMessage } from "./mailer.server";

/**
 * The site's e-mails, each as HTML and plain text, with the product's name. Links are
 * absolute (PUBLIC_URL). Kept short: one purpose, one button, the link spelled out too.
 */

interface Brand {
  productName: string;
  publicUrl: string;
  supportEmail: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function layout(
  brand: Brand,
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  after: string[] = [],
): MailMessage {
  const p = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text)}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#3ec7d9;color:#0e1a22;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;line-height:1.5;font-size:13px;color:#555">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(action.url)}" style="color:#0b7285;word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : "";
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Segoe UI,Arial,sans-serif;color:#1b1f24">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:12px;padding:32px">
<h1 style="margin:0 0 24px;font-size:20px">${escapeHtml(brand.productName)}</h1>
${paragraphs.map(p).join("\n")}${button}${after.map(p).join("\n")}
<p style="margin:32px 0 0;font-size:12px;color:#666">${escapeHtml(brand.productName)} · <a href="${escapeHtml(brand.publicUrl)}" style="color:#0b7285">${escapeHtml(brand.publicUrl)}</a> · ${escapeHtml(brand.supportEmail)}</p>
</div></body></html>`;
  const text = [
    brand.productName,
    "",
    ...paragraphs.flatMap((x) => [x, ""]),
    ...(action ? [`${action.label}: ${action.url}`, ""] : []),
    ...after.flatMap((x) => [x, ""]),
    `${brand.productName} · ${brand.publicUrl} · ${brand.supportEmail}`,
  ].join("\n");
  return { to, subject, html, text };
}

export function confirmationEmail(brand: Brand, to: string, name: string, url: string): MailMessage {
  return layout(
    brand,
    to,
    `Confirm your ${brand.productName} account`,
    [
      `Hello ${name || "there"},`,
      `Thanks for creating a ${brand.productName} account. Please confirm your e-mail address to log in.`,
    ],
    { label: "Confirm my e-mail address", url },
    ["If you did not create this account, you can ignore this e-mail."],
  );
}

export function alreadyRegisteredEmail(brand: Brand, to: string, name: string): MailMessage {
  return layout(
    brand,
    to,
    `Someone tried to register with your e-mail address`,
    [
      `Hello ${name || "there"},`,
      `Someone (perhaps you) tried to create a new ${brand.productName} account with this e-mail address. You already have an account, so nothing was created.`,
      "If you forgot your password, you can choose a new one:",
    ],
    { label: "Reset my password", url: `${brand.publicUrl}/forgot-password` },
    ["If it was not you, you can ignore this e-mail: your account is unchanged."],
  );
}

export function resetPasswordEmail(brand: Brand, to: string, name: string, url: string): MailMessage {
  return layout(
    brand,
    to,
    `Reset your ${brand.productName} password`,
    [
      `Hello ${name || "there"},`,
      "We received a request to reset your password. The link below expires in 24 hours and works once.",
    ],
    { label: "Choose a new password", url },
    ["If you did not ask for this, you can ignore this e-mail: your password is unchanged."],
  );
}

export function changeEmailEmail(brand: Brand, to: string, name: string, url: string): MailMessage {
  return layout(
    brand,
    to,
    `Confirm your new ${brand.productName} e-mail address`,
    [
      `Hello ${name || "there"},`,
      `Please confirm that you want to use ${to} for your ${brand.productName} account. Until you do, your current address stays in use.`,
    ],
    { label: "Confirm my new address", url },
    ["If you did not ask for this change, ignore this e-mail and your address stays as it is."],
  );
}
