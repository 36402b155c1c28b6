import { describe, expect, it } from "vitest";
import {
  checkWebhookUrl,
  failingTooLong,
  formatSignatureHeader,
  nextAttemptAt,
  parseEventTypes,
  parseSignatureHeader,
  retryDelayMs,
  RETRY_WINDOW_MS,
  WEBHOOK_EVENT_TYPES,
} from "~/domain/webhooks";
import { signatureOf, signWebhook, verifyWebhookSignature } from "~/server/webhooks/signature.server";
import { isInternalAddress } from "~/server/outbound/outbound-address.server";
import { createHmac } from "node:crypto";
import { webhookDisabledEmail } from "~/emails/webhook-notices.server";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("webhook signature", () => {
  const secret = "whsec_unit";
  const body = '{"id":"e1","type":"license.created","occurred_at":"2026-11-24T00:00:00.000Z","data":{}}';
  const now = new Date("2026-11-24T04:00:00Z");

  it("is ts=<unix seconds>;h1=<hex HMAC-SHA256 of '<ts>:<raw body>'>", () => {
    const ts = Math.floor(now.getTime() / 1000);
    const expected = createHmac("sha256", secret).update(`${ts}:${body}`).digest("hex");
    expect(signWebhook(secret, body, now)).toBe(`ts=${ts};h1=${expected}`);
    expect(signatureOf(secret, ts, body)).toBe(expected);
  });

  it("verifies the same body and secret within 5 minutes, and nothing else", () => {
    const header = signWebhook(secret, body, now);
    expect(verifyWebhookSignature(header, body, secret, now)).toBe(true);
    expect(verifyWebhookSignature(header, body, secret, new Date(now.getTime() + 5 * MINUTE))).toBe(true);
    expect(verifyWebhookSignature(header, body, secret, new Date(now.getTime() + 5 * MINUTE + 1000))).toBe(false);
    expect(verifyWebhookSignature(header, body, secret, new Date(now.getTime() - 6 * MINUTE))).toBe(false);
    expect(verifyWebhookSignature(header, `${body} `, secret, now)).toBe(false);
    expect(verifyWebhookSignature(header, body, "whsec_other", now)).toBe(false);
    expect(verifyWebhookSignature(null, body, secret, now)).toBe(false);
    expect(verifyWebhookSignature("ts=1;h1=zz", body, secret, now)).toBe(false);
  });

  it("reads and writes the header's shape", () => {
    const h1 = "a".repeat(64);
    expect(parseSignatureHeader(formatSignatureHeader(1700000000, h1))).toEqual({ ts: 1700000000, h1 });
    expect(parseSignatureHeader(`ts=1700000000;h1=${"A".repeat(64)}`)).toBeNull();
    expect(parseSignatureHeader(`h1=${h1};ts=1`)).toBeNull();
    expect(parseSignatureHeader("")).toBeNull();
    expect(parseSignatureHeader(undefined)).toBeNull();
  });
});

describe("webhook back-off", () => {
  it("waits 1, 4, 16, 64, 256 minutes, then 12 hours", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => retryDelayMs(n) / MINUTE)).toEqual([1, 4, 16, 64, 256, 720, 720, 720]);
  });

  it("schedules attempts only until 72 hours after the event", () => {
    const event = new Date("2026-11-24T00:00:00Z");
    expect(nextAttemptAt(1, event, event)).toEqual(new Date(event.getTime() + MINUTE));
    const late = new Date(event.getTime() + RETRY_WINDOW_MS - 12 * HOUR);
    expect(nextAttemptAt(9, late, event)).toEqual(new Date(event.getTime() + RETRY_WINDOW_MS));
    expect(nextAttemptAt(9, new Date(late.getTime() + 1), event)).toBeNull();
    // Attempts over the whole window: the schedule reaches the 3 days.
    let at = event;
    let attempts = 1;
    for (let next = nextAttemptAt(1, at, event); next; next = nextAttemptAt(attempts, at, event)) {
      at = next;
      attempts++;
    }
    expect(attempts).toBe(11);
    expect(event.getTime() + RETRY_WINDOW_MS - at.getTime()).toBeLessThan(12 * HOUR);
  });

  it("disables after 24 hours of failing, not before", () => {
    const since = new Date("2026-11-24T00:00:00Z");
    expect(failingTooLong(null, new Date())).toBe(false);
    expect(failingTooLong(since, new Date(since.getTime() + 24 * HOUR - 1))).toBe(false);
    expect(failingTooLong(since, new Date(since.getTime() + 24 * HOUR))).toBe(true);
  });
});

describe("webhook endpoint input", () => {
  it("accepts known events in the list's order and names unknown ones", () => {
    expect(parseEventTypes(["release.published", "license.created"])).toEqual({
      events: ["license.created", "release.published"],
      error: null,
    });
    expect(parseEventTypes([...WEBHOOK_EVENT_TYPES]).events).toHaveLength(12);
    expect(parseEventTypes(["license.created", "license.deleted"]).error).toMatch(/^Unknown event license\.deleted:/);
    expect(parseEventTypes([]).error).toBe("Choose at least one event.");
  });

  it.each([
    ["https://crm.example.com/hooks", false, null],
    ["https://crm.example.com/hooks", true, null],
    ["http://127.0.0.1:4000/hook", false, null],
    ["http://crm.example.com/hooks", true, "The URL must use https in production."],
    ["ftp://crm.example.com/", false, "The URL must start with https://."],
    ["javascript:alert(1)", false, "The URL must start with https://."],
    ["crm.example.com/hooks", false, "Enter a full URL, such as https://example.com/webhooks."],
    ["https://a:b@crm.example.com/", true, "The URL must not contain a user name or password."],
    ["   ", false, "Enter the endpoint's URL."],
    [`https://example.com/${"x".repeat(2000)}`, true, "Use at most 2000 characters."],
  ])("checkWebhookUrl(%s, production %s)", (url, production, error) => {
    expect(checkWebhookUrl(url, production).error).toBe(error);
  });

  it.each([
    ["127.0.0.1", true],
    ["10.20.30.40", true],
    ["172.16.0.1", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["::1", true],
    ["::", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:8.8.8.8", false],
    ["8.8.8.8", false],
    ["93.184.215.14", false],
    ["2606:4700::1111", false],
    ["not-an-ip", true],
  ])("isInternalAddress(%s) is %s", (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });
});

describe("the admins' e-mail when an endpoint is disabled", () => {
  it("names the address, since when it failed, the last error and where to enable it, in HTML and text", async () => {
    const brand = {
      productName: "ForgeKit",
      publicUrl: "https://www.example.com",
      supportEmail: "support@example.com",
    };
    const mail = await webhookDisabledEmail(brand, "admin@example.com", "Ada", {
      url: "https://crm.example.com/hooks",
      failingSince: new Date("2026-11-23T04:00:00Z"),
      lastError: "HTTP 503",
    });
    expect(mail.subject).toBe("ForgeKit: a webhook endpoint was disabled");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("https://crm.example.com/hooks");
      expect(part).toContain("HTTP 503");
      expect(part).toContain("https://www.example.com/admin/webhooks");
    }
    expect(mail.text).toContain("04:00 UTC");
  });
});
