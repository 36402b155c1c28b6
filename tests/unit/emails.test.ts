import { describe, expect, it } from "vitest";
import { CUSTOMER_MAIL_KINDS, type CustomerMailKind } from "~/domain/customer-mail";
import * as accountEmails from "~/emails/account-emails.server";
import * as accountNotices from "~/emails/account-notices.server";
import type { CustomerEmailFields, LicenseView } from "~/emails/customer-email-types.server";
import { customerEmail } from "~/emails/customer-emails.server";

/**
 * Every e-mail the site sends is a React Email template (app/emails/) rendered to both HTML and
 * plain text. A template added without a case here fails the coverage checks below.
 */

const brand = {
  productName: "ForgeKit",
  publicUrl: "https://www.example.com",
  supportEmail: "support@forgekit.example",
};
const name = "Ada <b>Lovelace</b> & Co";
const url = "https://www.example.com/reset-password?token=a&b=1";
const at = new Date("2026-11-23T21:58:00.000Z");

const license: LicenseView = {
  shortId: "FK-ABCD",
  planName: "Yearly",
  startDate: new Date("2026-01-02T00:00:00Z"),
  endDate: new Date("2027-01-02T00:00:00Z"),
  isTrial: false,
  trialEndsAt: null,
  licenseKey: "aXY=:Y2lwaGVy",
  stateLine: "Active, renews on Jan 2, 2027 for $10.00",
  nextCharge: { at: new Date("2027-01-02T00:00:00Z"), amount: "$10.00" },
};

const customerFields: Record<CustomerMailKind, CustomerEmailFields> = {
  "license-delivered": { kind: "license-delivered", tester: false, amount: "$10.00" },
  "trial-ends-soon": { kind: "trial-ends-soon", price: "$5.00", chargeOn: at },
  "renewal-coming": { kind: "renewal-coming", amount: "$5.00", renewsOn: at },
  renewed: { kind: "renewed", amount: "$5.00" },
  extended: { kind: "extended", months: 3 },
  "payment-failed": { kind: "payment-failed", amount: "$5.00", graceUntil: at },
  "refund-processed": { kind: "refund-processed", amount: "$5.00" },
  "subscription-cancelled": { kind: "subscription-cancelled", endsOn: at },
  "license-revoked": { kind: "license-revoked" },
};

type Rendered = { subject: string; html: string; text: string };

/** Each account template with one call; the keys must be every template the modules export. */
const accountCases: Record<string, () => Promise<Rendered>> = {
  confirmationEmail: () => accountEmails.confirmationEmail(brand, "ada@example.com", name, url),
  alreadyRegisteredEmail: () => accountEmails.alreadyRegisteredEmail(brand, "ada@example.com", name),
  resetPasswordEmail: () => accountEmails.resetPasswordEmail(brand, "ada@example.com", name, url, ["GitHub"]),
  changeEmailEmail: () => accountEmails.changeEmailEmail(brand, "ada@example.com", name, url),
  passwordChangedEmail: () => accountNotices.passwordChangedEmail(brand, "ada@example.com", name),
  providerConnectedEmail: () => accountNotices.providerConnectedEmail(brand, "ada@example.com", name, "GitHub", at),
  accountDeletedEmail: () => accountNotices.accountDeletedEmail(brand, "ada@example.com", name),
};

const cases: [string, () => Promise<Rendered>][] = [
  ...CUSTOMER_MAIL_KINDS.map((kind): [string, () => Promise<Rendered>] => [
    kind,
    () => customerEmail({ brand, name, license, ...customerFields[kind] }),
  ]),
  ...Object.entries(accountCases),
];

describe("every e-mail template", () => {
  it("is covered here: every exported account template has a case", () => {
    const exported = [...Object.entries(accountEmails), ...Object.entries(accountNotices)]
      .filter(([, value]) => typeof value === "function")
      .map(([key]) => key);
    expect(exported.sort()).toEqual(Object.keys(accountCases).sort());
  });

  it.each(cases)("%s renders an HTML and a plain-text version of the same message", async (_label, render) => {
    const mail = await render();
    expect(mail.subject).toMatch(/ForgeKit|e-mail address/);
    expect(mail.html).toMatch(/^<!DOCTYPE html/i);
    expect(mail.html).toContain("ForgeKit");
    // The name is text, never markup: escaped in the HTML, as written in the plain text.
    expect(mail.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt; &amp; Co");
    expect(mail.html).not.toContain("<b>Lovelace");
    expect(mail.text).toContain(`Hello ${name},`);
    expect(mail.text.replace(name, "")).not.toMatch(/<[a-z!/]/i);
    expect(mail.text).toContain("ForgeKit · https://www.example.com");
    expect(mail.text.trim().length).toBeGreaterThan(100);
  });

  it("an account e-mail's plain text writes its button as 'label: address', first of its links", async () => {
    const mail = await accountEmails.resetPasswordEmail(brand, "ada@example.com", "Ada", url);
    expect(mail.text).toContain(`Choose a new password: ${url}`);
    expect(mail.text.match(/https?:\/\/\S+/)?.[0]).toBe(url);
    expect(mail.text).not.toContain("If the button does not work");
    expect(mail.html).toContain("If the button does not work");
    expect(mail.text).not.toContain("can also sign in");
  });
});
