import { describe, expect, it } from "vitest";
import { isJobIntent } from "~/domain/admin-jobs";
import {
  isSupportIntent,
  parseNewEmail,
  parseSupportReason,
  SUPPORT_REASON_MAX,
  SUPPORT_TEXTS,
} from "~/domain/admin-support";
import { paymentMethodText } from "~/domain/license-support";
import { timelineEntry, USER_EVENT_LABELS } from "~/domain/user-timeline";
import { cardOf } from "~/server/billing/record-payment-method.server";

describe("support actions' input", () => {
  it("a reason is required, trimmed and bounded", () => {
    expect(parseSupportReason(undefined)).toEqual({ reason: null, error: SUPPORT_TEXTS.reasonRequired });
    expect(parseSupportReason("   ")).toEqual({ reason: null, error: SUPPORT_TEXTS.reasonRequired });
    expect(parseSupportReason("x".repeat(SUPPORT_REASON_MAX + 1))).toEqual({
      reason: null,
      error: SUPPORT_TEXTS.reasonTooLong,
    });
    expect(parseSupportReason("  Ticket 41 ")).toEqual({ reason: "Ticket 41", error: null });
  });

  it("a new address is checked as registration checks one, and lower-cased", () => {
    expect(parseNewEmail("Tia.Typo@Gmail.example ")).toEqual({ email: "tia.typo@gmail.example", error: null });
    expect(parseNewEmail("").error).toBeTruthy();
    expect(parseNewEmail("no-at-sign").error).toBeTruthy();
    expect(parseNewEmail(42).error).toBeTruthy();
  });

  it("knows its intents and no others", () => {
    expect(isSupportIntent("support-reset-two-factor")).toBe(true);
    expect(isSupportIntent("revoke")).toBe(false);
    expect(isJobIntent("job-retry")).toBe(true);
    expect(isJobIntent("job-run")).toBe(false);
  });
});

describe("the payment method support sees", () => {
  it("names the card by brand and last 4, only when both are known", () => {
    expect(paymentMethodText("visa", "4242")).toBe("Visa •••• 4242");
    expect(paymentMethodText("american_express", "0005")).toBe("American Express •••• 0005");
    expect(paymentMethodText("some_new_brand", "1234")).toBe("Some new brand •••• 1234");
    expect(paymentMethodText(null, "4242")).toBeNull();
    expect(paymentMethodText("visa", null)).toBeNull();
  });

  it("reads Paddle's payments[].method_details.card, ignoring anything else", () => {
    const card = (details: unknown) => ({ payments: [{ method_details: details }] });
    expect(cardOf(card({ type: "card", card: { type: "mastercard", last4: "5454" } }))).toEqual({
      brand: "mastercard",
      last4: "5454",
    });
    expect(cardOf(card({ type: "paypal", card: null }))).toBeNull();
    expect(cardOf(card({ type: "card", card: { type: "visa", last4: "42" } }))).toBeNull();
    expect(cardOf({ payments: "nope" })).toBeNull();
    expect(cardOf({})).toBeNull();
  });
});

describe("the timeline's words", () => {
  const row = (
    source: "event" | "admin",
    kind: string,
    details: Record<string, unknown>,
    actor: string | null = null,
  ) => timelineEntry({ id: "1", at: "2026-06-15T12:00:00.000Z", source, kind, details, actor });

  it("names every event kind, with what it was about", () => {
    for (const kind of Object.keys(USER_EVENT_LABELS))
      expect(row("event", kind, {}).title).toBe(USER_EVENT_LABELS[kind]);
    expect(
      row("event", "payment.renewal", {
        short_id: "FK-AAAA-BBBB",
        amount_cents: 900,
        currency: "USD",
        transaction_id: "txn_1",
      }).detail,
    ).toBe("FK-AAAA-BBBB · $9.00 · txn_1");
    expect(row("event", "refund.done", { short_id: "FK-AAAA-BBBB", refunded_cents: 855, currency: "USD" }).detail).toBe(
      "FK-AAAA-BBBB · $8.55",
    );
    expect(row("event", "mail.sent", { subject: "ForgeKit: renewed", to: "a@b.example" }).detail).toBe(
      "“ForgeKit: renewed” · to a@b.example",
    );
    expect(row("event", "account.signed_in", { ip: "203.0.113.7" }).detail).toBe("from 203.0.113.7");
    expect(row("event", "account.email_changed", { from: "a@old.example", to: "a@new.example" }).detail).toBe(
      "a@old.example · → a@new.example",
    );
    expect(row("event", "something.new", {}).title).toBe("something.new");
  });

  it("an admin action names the admin and the reason", () => {
    const entry = row("admin", "user.two_factor_reset", { reason: "ID checked" }, "admin@forgekit.example");
    expect(entry).toMatchObject({
      source: "admin",
      title: "Reset two-factor authentication",
      detail: "by admin@forgekit.example · reason: ID checked",
    });
  });
});
