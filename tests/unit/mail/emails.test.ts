import { describe, expect, it } from "vitest";
import { CUSTOMER_MAIL_KINDS, type CustomerMailKind } from "~/domain/customer-mail";
import * as accountEmails from "~/emails/account-emails.server";
import * as accountNotices from "~/emails/account-notices.server";
import * as twoFactorNotices from "~/emails/two-factor-notices.server";
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
  "paid-plan-started": { kind: "paid-plan-started", amount: "$10.00", renewsOn: at },
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
  registeredAgainEmail: () => accountEmails.registeredAgainEmail(brand, "ada@example.com", name, url),
  emailChangedEmail: () =>
    accountEmails.emailChangedEmail(brand, "ada@example.com", name, {
      newEmail: "ada@new.example",
      undoUrl: url,
      days: 7,
    }),
  passwordChangedEmail: () => accountNotices.passwordChangedEmail(brand, "ada@example.com", name),
  providerConnectedEmail: () => accountNotices.providerConnectedEmail(brand, "ada@example.com", name, "GitHub", at),
  accountDeletedEmail: () =>
    accountNotices.accountDeletedEmail(brand, "ada@example.com", name, [
      { planName: "Yearly", shortId: "FK-7Q2M-9XKD" },
      { planName: "Monthly", shortId: "FK-ABCD-2345" },
    ]),
  twoFactorEnabledEmail: () => twoFactorNotices.twoFactorEnabledEmail(brand, "ada@example.com", name, at),
  twoFactorDisabledEmail: () => twoFactorNotices.twoFactorDisabledEmail(brand, "ada@example.com", name, at),
  recoveryCodeUsedEmail: () =>
    twoFactorNotices.recoveryCodeUsedEmail(brand, "ada@example.com", name, { at, ipAddress: "198.51.100.4", left: 7 }),
  recoveryCodesRegeneratedEmail: () =>
    twoFactorNotices.recoveryCodesRegeneratedEmail(brand, "ada@example.com", name, at),
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
    const exported = [
      ...Object.entries(accountEmails),
      ...Object.entries(accountNotices),
      ...Object.entries(twoFactorNotices),
    ]
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
    expect(mail.text).not.toContain("can also log in");
  });

  it("the two-factor notices say what changed and when, in both parts", async () => {
    const on = await twoFactorNotices.twoFactorEnabledEmail(brand, "ada@example.com", "Ada", at);
    expect(on.subject).toBe("ForgeKit: two-factor authentication is on");
    expect(on.text).toContain("turned on for your ForgeKit account on Nov 23, 2026 at 21:58 UTC");
    expect(on.text).toContain("https://www.example.com/forgot-password");
    const off = await twoFactorNotices.twoFactorDisabledEmail(brand, "ada@example.com", "Ada", at);
    expect(off.subject).toBe("ForgeKit: two-factor authentication is off");
    expect(off.text).toContain("turned off for your ForgeKit account on Nov 23, 2026 at 21:58 UTC");
    expect(off.text).toContain("https://www.example.com/profile#two-factor");
    const made = await twoFactorNotices.recoveryCodesRegeneratedEmail(brand, "ada@example.com", "Ada", at);
    expect(made.text).toContain("Your previous recovery codes no longer work.");
  });

  it("a recovery code's notice says from where, and how many codes are left", async () => {
    const used = (left: number) =>
      twoFactorNotices.recoveryCodeUsedEmail(brand, "ada@example.com", "Ada", { at, ipAddress: "198.51.100.4", left });
    const seven = await used(7);
    expect(seven.subject).toBe("ForgeKit: a recovery code was used to log in");
    expect(seven.text).toContain("on Nov 23, 2026 at 21:58 UTC from the address 198.51.100.4");
    expect(seven.text).toContain("7 recovery codes are left");
    expect(seven.html).toContain("7 recovery codes are left");
    expect((await used(1)).text).toContain("1 recovery code is left");
    const none = await used(0);
    expect(none.text).toContain("That was your last recovery code: none are left.");
    expect(none.text).toContain("Make new recovery codes on your profile");
  });

  it("the deletion e-mail names each cancelled subscription by plan and short id, or says there were none", async () => {
    const two = await accountCases.accountDeletedEmail!();
    expect(two.text).toContain("We cancelled your 2 subscriptions: Yearly (FK-7Q2M-9XKD), Monthly (FK-ABCD-2345).");
    expect(two.html).toContain("Yearly (FK-7Q2M-9XKD)");
    const one = await accountNotices.accountDeletedEmail(brand, "ada@example.com", "Ada", [
      { planName: "Monthly", shortId: "FK-ABCD-2345" },
    ]);
    expect(one.text).toContain("We cancelled your subscription: Monthly (FK-ABCD-2345). It will not renew");
    const none = await accountNotices.accountDeletedEmail(brand, "ada@example.com", "Ada", []);
    expect(none.text).toContain("You had no renewing subscriptions");
  });
});
