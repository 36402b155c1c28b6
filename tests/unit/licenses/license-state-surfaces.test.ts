import { describe, expect, it } from "vitest";
import { auditCsvRow } from "~/domain/admin-audit";
import { failedAttempts, refundEntries, upcomingCharges, type UpcomingCharge } from "~/domain/billing-overview";
import type { CustomerMailKind } from "~/domain/customer-mail";
import type { CustomerEmailFields } from "~/emails/customer-email-types.server";
import { customerEmail } from "~/emails/customer-emails.server";
import { canCopyKey, canExtendLicense, endedOffer, summarizeLicense } from "~/domain/license-card";
import {
  auditLicenseState,
  LICENSE_STATE_NAMES,
  LICENSE_STATE_TABLE,
  licenseState,
  licenseStateText,
  licenseStateWord,
  type LicenseStateName,
} from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { supportView } from "~/domain/license-support";
import type { License, NewLicense } from "~/server/db/schema";
import { describeLicense } from "~/server/license-api/validate-license.server";
import { licenseView } from "~/server/mail/customer-mail.server";
import { demoLicenses } from "~/server/seed.server";

/**
 * Every license state × every surface (decisions 0057 and 0060): for each state of the one state table, the words
 * and actions the customer's card, the admin's user page, the desktop API, the audit CSV, /billing
 * (charges to come, failed renewals, refunds) and the customer e-mail that tells of it give it (its
 * words, whether it carries the key, its one button). Pure functions and templates only, so it runs
 * in seconds. A state added to LICENSE_STATE_NAMES without a row here fails the type check and the
 * first test; a row without words on a surface fails its test.
 */

process.env.LICENSE_SECRET ??= "license-state-surfaces-secret-0123456789abcdef";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

function stored(row: NewLicense, index: number): License {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
    short_id: `FK-TEST-${String(index).padStart(4, "0")}`,
    windows_username: null,
    computer_name: null,
    is_trial: false,
    trial_starts_at: null,
    trial_ends_at: null,
    auto_renew: false,
    cancellation_requested: false,
    cancellation_requested_at: null,
    paddle_subscription_id: null,
    purchase_date: null,
    refund_eligible_until: null,
    refunded: false,
    refund_amount: null,
    refunded_at: null,
    created_at: NOW,
    extended_months: 0,
    subscription_synced_at: null,
    past_due_since: null,
    payment_state_at: null,
    charged_back_at: null,
    status: "active",
    start_date: NOW,
    ...row,
  } as License;
}

const seed = demoLicenses("00000000-0000-4000-8000-0000000000aa", "demo@forgekit.example", NOW);
const [renewing, cancelled, trial, trialEnded, expired, revoked, refundRequested, refunded, tester] = seed;

/** What every surface must say and offer for one state. */
interface Surfaces {
  license: NewLicense;
  /** The card's badge and status line; the admin shows the same. */
  badge: string;
  line: string;
  /** The desktop API's code. */
  code: string;
  /** The phrase e-mails and exports use. */
  word: string;
  /** The card's actions: Copy key, Extend, and what an ended card offers instead. */
  copy: boolean;
  extend: boolean;
  ended: "extend" | "buy" | null;
  /** /billing: the charges to come (by kind), whether a failed renewal is listed, the refund's entry. */
  billing: { upcoming: UpcomingCharge["kind"][]; failed: boolean; refund: "pending" | "done" | null };
  /** The customer e-mail that tells of this state (null: none does), its words, its key, its button. */
  mail: StateMail | null;
}

interface StateMail {
  fields: CustomerEmailFields;
  says: string[];
  saysNot?: string[];
  key: boolean;
  button: string;
}

const BRAND = { productName: "ForgeKit", publicUrl: "https://forgekit.example", supportEmail: "help@forgekit.example" };

const SURFACES: Record<LicenseStateName, Surfaces> = {
  "charged-back": {
    license: { ...renewing!, status: "revoked", charged_back_at: at(-1) },
    badge: "Charged back",
    line: "Revoked on Jun 14, 2026: a payment for it was disputed with the bank (a chargeback).",
    code: "REVOKED",
    word: "charged back",
    copy: false,
    extend: false,
    ended: null,
    billing: { upcoming: [], failed: false, refund: null },
    mail: {
      fields: { kind: "license-revoked", chargeback: true },
      says: ["disputed with your bank", "was revoked", "help@forgekit.example"],
      key: false,
      button: "Open my licenses",
    },
  },
  revoked: {
    license: revoked!,
    badge: "Revoked",
    line: "Revoked: this license no longer works.",
    code: "REVOKED",
    word: "revoked",
    copy: false,
    extend: false,
    ended: null,
    billing: { upcoming: [], failed: false, refund: null },
    mail: {
      fields: { kind: "license-revoked" },
      says: ["was revoked", "no longer activates", "help@forgekit.example"],
      key: false,
      button: "Open my licenses",
    },
  },
  refunded: {
    license: refunded!,
    badge: "Refunded",
    line: "Refunded on May 21, 2026",
    code: "REFUNDED",
    word: "refunded",
    copy: false,
    extend: false,
    ended: null,
    billing: { upcoming: [], failed: false, refund: "done" },
    mail: {
      fields: { kind: "refund-processed", amount: "$85.50" },
      says: ["refund of $85.50", "no longer work", "will not renew"],
      key: false,
      button: "View billing history",
    },
  },
  "refund-requested": {
    license: refundRequested!,
    badge: "Refund requested",
    line: "Refund requested: it is being processed.",
    code: "REFUND_REQUESTED",
    word: "refund requested",
    copy: false,
    extend: false,
    ended: null,
    // No e-mail on a request: the refund's own e-mail comes when it is approved (refunded).
    billing: { upcoming: [], failed: false, refund: "pending" },
    mail: null,
  },
  "trial-expired": {
    license: trialEnded!,
    badge: "Trial Expired",
    line: "Trial Expired on Feb 22, 2026",
    code: "TRIAL_EXPIRED",
    word: "trial expired",
    copy: false,
    extend: false,
    ended: "buy",
    billing: { upcoming: [], failed: false, refund: null },
    mail: null,
  },
  "trial-converting": {
    license: { ...renewing!, is_trial: true, trial_ends_at: at(3), end_date: at(3) },
    badge: "Trial",
    line: "Active, trial until Jun 18, 2026; first charge $9.00 on Jun 18, 2026, then renews automatically",
    code: "VALID",
    word: "trial",
    copy: true,
    extend: false,
    ended: null,
    billing: { upcoming: ["first-charge"], failed: false, refund: null },
    mail: {
      fields: { kind: "trial-ends-soon", price: "$9.00", chargeOn: at(3) },
      says: ["ends on Jun 18, 2026", "charged $9.00", "$9.00 on Jun 18, 2026"],
      key: false,
      button: "Manage my subscription",
    },
  },
  "trial-active": {
    license: trial!,
    badge: "Trial",
    line: "Active, trial until Jun 20, 2026",
    code: "VALID",
    word: "trial",
    copy: true,
    extend: false,
    ended: null,
    billing: { upcoming: [], failed: false, refund: null },
    mail: {
      fields: { kind: "license-delivered", tester: false, amount: null },
      says: ["free until Jun 20, 2026", "Nothing will be charged", "Offline use comes with a paid plan"],
      // No subscription to manage and no offline data to set: a trial has neither.
      saysNot: ["Manage my subscription", "set your Windows username"],
      key: true,
      button: "Open my licenses",
    },
  },
  expired: {
    license: expired!,
    badge: "Expired",
    line: "Expired on May 29, 2026",
    code: "EXPIRED",
    word: "expired",
    copy: false,
    extend: true,
    ended: "extend",
    billing: { upcoming: [], failed: false, refund: null },
    mail: null,
  },
  "payment-failed": {
    license: { ...renewing!, end_date: at(-2), past_due_since: at(-2) },
    badge: "Payment failed",
    line: "Payment failed: active until Jun 27, 2026 unless a payment goes through",
    code: "VALID",
    word: "payment failed",
    copy: true,
    extend: true,
    ended: null,
    billing: { upcoming: ["retry"], failed: true, refund: null },
    mail: {
      fields: { kind: "payment-failed", amount: "$9.00", graceUntil: at(12) },
      says: ["payment of $9.00", "keeps working until Jun 27, 2026", "retried automatically"],
      key: false,
      button: "Update payment method",
    },
  },
  renewing: {
    license: renewing!,
    badge: "Active",
    line: "Active, renews on Jul 5, 2026 for $9.00",
    code: "VALID",
    word: "active",
    copy: true,
    extend: true,
    ended: null,
    billing: { upcoming: ["renewal"], failed: false, refund: null },
    mail: {
      fields: { kind: "renewed", amount: "$9.00" },
      says: ["Active, renews on Jul 5, 2026 for $9.00", "now runs until Jul 5, 2026"],
      key: true,
      button: "Open my licenses",
    },
  },
  "renewal-cancelled": {
    license: cancelled!,
    badge: "Active",
    line: "Active until May 6, 2027; automatic renewal is cancelled",
    code: "VALID",
    word: "active",
    copy: true,
    extend: true,
    ended: null,
    billing: { upcoming: [], failed: false, refund: null },
    mail: {
      fields: { kind: "subscription-cancelled", endsOn: new Date("2027-05-06T12:00:00.000Z") },
      says: ["will not renew", "until it ends on May 6, 2027", "not be charged again"],
      key: false,
      button: "Manage my subscription",
    },
  },
  "active-until": {
    license: tester!,
    badge: "Active",
    line: "Active, until Jul 14, 2026",
    code: "VALID",
    word: "active",
    copy: true,
    extend: false,
    ended: null,
    billing: { upcoming: [], failed: false, refund: null },
    mail: {
      fields: { kind: "license-delivered", tester: true, amount: null },
      says: ["tester license", "Jul 14, 2026", "set your Windows username"],
      saysNot: ["invoice"],
      key: true,
      button: "Open my licenses",
    },
  },
};

const ROWS = LICENSE_STATE_NAMES.map((name, index) => {
  const surfaces = SURFACES[name] as Surfaces | undefined;
  if (!surfaces) throw new Error(`The state "${name}" has no row here: give it its words on every surface.`);
  return { name, ...surfaces, row: stored(surfaces.license, index) };
});

describe("every license state on every surface", () => {
  it("has one row for every state of the table, and each row's license is in that state", () => {
    expect(Object.keys(SURFACES).sort()).toEqual([...LICENSE_STATE_NAMES].sort());
    for (const { name, row } of ROWS) expect(licenseState(licenseFacts(row), NOW).state).toBe(name);
  });

  it("every state of the table has words: a badge, a line, a phrase", () => {
    for (const name of LICENSE_STATE_NAMES) {
      const state = LICENSE_STATE_TABLE[name];
      expect(state.badge.label.trim(), name).not.toBe("");
      expect(state.word.trim(), name).not.toBe("");
      expect(state.line({ date: "Jun 1, 2026", at: NOW, charge: "$9.00", chargeCents: 900 }).trim(), name).not.toBe("");
    }
  });

  it.each(ROWS)("$name: the card's badge, line and actions", ({ row, badge, line, copy, extend, ended }) => {
    const facts = licenseFacts(row);
    expect(summarizeLicense(facts, NOW)).toMatchObject({ badge: { label: badge }, line });
    expect(canCopyKey(facts, NOW)).toBe(copy);
    expect(canExtendLicense(row)).toBe(extend);
    const offer = endedOffer(facts, NOW);
    expect(offer?.next ?? null).toBe(ended);
    if (offer) expect(offer.line).toMatch(/no longer works\. (Extend it|Buy a plan)/);
  });

  it.each(ROWS)("$name: the admin's user page says what the card says", ({ name, row, badge, line, code }) => {
    const admin = supportView(row, NOW);
    expect(admin.state.badge.label).toBe(badge);
    expect(admin.state.line).toBe(line);
    expect(admin.details.find((d) => d.label === "Desktop API code")?.value).toBe(code);
    // Only a failed payment is explained, with what the customer does.
    if (name === "payment-failed") expect(admin.paymentProblem?.join(" ")).toContain("Update payment method");
    else expect(admin.paymentProblem).toBeNull();
  });

  it.each(ROWS)("$name: the desktop API's answer", ({ name, row, code }) => {
    const answer = describeLicense(row, {}, NOW);
    expect(answer.code).toBe(code);
    expect(answer.valid).toBe(code === "VALID");
    expect(answer.detail.trim()).not.toBe("");
    // The current key only while it works; the reasons the tool reads beside the code.
    expect(Boolean(answer.license?.license_key)).toBe(code === "VALID");
    expect(answer.license?.payment_past_due).toBe(name === "payment-failed");
    expect(answer.license?.revoked_reason).toBe(name === "charged-back" ? "chargeback" : undefined);
  });

  it.each(ROWS)("$name: the audit CSV, e-mails and exports", ({ row, badge, line, code, word }) => {
    const facts = licenseFacts(row);
    const csv = auditCsvRow({
      created_at: NOW.toISOString(),
      actor_email: "admin@forgekit.example",
      actor_id: null,
      action: "license.revoke",
      target_type: "license",
      target_id: row.id,
      details: auditLicenseState(facts, NOW),
    });
    // The details column is JSON inside a quoted CSV field: its quotes are doubled.
    expect(csv).toContain(`""license_state"":""${badge}""`);
    expect(csv).toContain(`""license_status_line"":""${line}""`);
    expect(csv).toContain(`""desktop_code"":""${code}""`);
    expect(licenseStateWord(facts, NOW)).toBe(word);
    expect(licenseStateText(facts, NOW)).toContain(line);
  });

  it.each(ROWS)("$name: /billing's charges to come, failed renewals and refunds", ({ row, billing }) => {
    const license = { ...licenseFacts(row), id: row.id, short_id: row.short_id };
    const upcoming = upcomingCharges([license], NOW);
    expect(upcoming.map((c) => c.kind)).toEqual(billing.upcoming);
    // Every charge names its license and its amount with the currency, as the card does.
    for (const charge of upcoming) expect(charge.text).toMatch(new RegExp(`\\$\\d+\\.\\d{2} for .*${row.short_id}`));
    if (billing.upcoming.includes("retry"))
      expect(upcoming[0]!.text).toMatch(/^Due now: .*retried automatically until Jun 27, 2026/);
    const failed = failedAttempts([license], NOW);
    expect(failed.length > 0).toBe(billing.failed);
    for (const attempt of failed)
      expect(attempt.text).toContain(`could not be charged on Jun 13, 2026. It works until Jun 27, 2026`);
    // The license's plan payment, as the refund it had (or none): the refund's entry and its words.
    const refunds = refundEntries([
      {
        id: `txn_${row.short_id}`,
        kind: "purchase",
        license_type: row.license_type,
        license_short_id: row.short_id,
        billed_at: row.start_date.toISOString(),
        amount_cents: 9000,
        refunded_cents: row.refunded ? (row.refund_amount ?? 8550) : 0,
        pending_refund_cents: row.status === "refund_requested" ? 8550 : 0,
        currency: "USD",
      },
    ]);
    expect(refunds.map((r) => r.state)).toEqual(billing.refund ? [billing.refund] : []);
    for (const refund of refunds)
      expect(refund.text).toMatch(
        refund.state === "pending" ? /: Refund of \$85\.50 pending$/ : /: Refunded \$\d+\.\d{2}/,
      );
  });

  it.each(ROWS)("$name: the customer e-mail that tells of it", async ({ name, row, mail }) => {
    if (!mail) return expect(["refund-requested", "trial-expired", "expired"]).toContain(name);
    const kind: CustomerMailKind = mail.fields.kind;
    const sent = await customerEmail({
      brand: BRAND,
      name: "Dana Developer",
      license: licenseView({ ...row, renewal_seats: null }, NOW),
      ...mail.fields,
    });
    expect(sent.subject, kind).toContain(row.short_id);
    for (const words of mail.says) expect(sent.text, `${name}: "${words}"`).toContain(words);
    for (const words of mail.saysNot ?? []) expect(sent.text, `${name}: not "${words}"`).not.toContain(words);
    // The key only in the e-mails that deliver one, and only while the license works.
    expect(sent.text.includes(row.license_key), `${name}: the key`).toBe(mail.key);
    // The one button: what the customer does next.
    const button = /<a href="[^"]+"[^>]*>(?:(?!<\/a>)[\s\S])*?>([^<]+)<\/span>/.exec(sent.html)?.[1];
    expect(button, `${name}: its button`).toBe(mail.button);
  });
});
