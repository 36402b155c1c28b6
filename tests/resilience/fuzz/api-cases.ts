// The generated cases of the fuzz test (fuzz.test.ts) for the API routes and odd headers: webhook
// deliveries, the demo renewal API, and forms with malformed cookies.
import fc from "fast-check";
import { signatureHeader } from "~/server/billing/webhook-signature.server";
import { identityArb, originArb, ROUTES, SECRET, garbage, originHeader, type FuzzCase } from "./requests";

export function webhookCase(): fc.Arbitrary<FuzzCase> {
  let eventNumber = 0;
  return fc
    .record({
      signed: fc.constantFrom("good", "good", "good", "none", "garbage", "stale"),
      shape: fc.constantFrom("event", "event", "json", "text", "deep", "bigint", "surrogate"),
      type: fc.constantFrom(
        "transaction.completed",
        "subscription.updated",
        "subscription.canceled",
        "adjustment.updated",
        "adjustment.created",
        "customer.updated",
        "x",
      ),
      data: fc.jsonValue({ maxDepth: 3 }),
      json: fc.json({ maxDepth: 3 }),
      text: garbage,
      identity: identityArb,
      origin: originArb,
    })
    .map((r): FuzzCase => {
      let raw: string;
      switch (r.shape) {
        case "event":
          raw = JSON.stringify({
            event_id: `evt_fuzz_${++eventNumber}`,
            event_type: r.type,
            occurred_at: new Date().toISOString(),
            notification_id: "ntf_x",
            data: r.data,
          });
          break;
        case "json":
          raw = r.json;
          break;
        case "deep":
          raw = "[".repeat(50_000) + "]".repeat(50_000);
          break;
        case "bigint":
          raw = `{"event_id":"evt_1","event_type":"${r.type}","occurred_at":1e400,"data":{"id":123456789012345678901234567890,"items":[1e999]}}`;
          break;
        case "surrogate":
          raw = `{"event_id":"evt_\\ud800","event_type":"${r.type}","occurred_at":"2031-01-01T00:00:00Z","data":{"id":"sub_\\udfff","custom_data":{"user_id":"\\ud800"}}}`;
          break;
        default:
          raw = r.text;
      }
      const headers: Record<string, string> = { "Content-Type": "application/json", ...originHeader(r.origin) };
      if (r.signed === "good") headers["Paddle-Signature"] = signatureHeader(SECRET, raw);
      if (r.signed === "stale")
        headers["Paddle-Signature"] = signatureHeader(SECRET, raw, new Date(Date.now() - 3_600_000));
      if (r.signed === "garbage")
        headers["Paddle-Signature"] = `ts=${r.text};h1=${r.text}`.replace(/[^\x20-\x7e]/g, "?");
      return {
        label: `webhook ${r.signed} ${r.shape}`,
        identity: r.identity,
        method: "POST",
        path: "/api/webhooks/paddle",
        headers,
        body: Buffer.from(raw),
        expect: "no-5xx",
      };
    });
}

export function renewCase(): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      auth: fc.constantFrom("good", "good", "none", "garbage", "basic"),
      body: fc.oneof(
        fc
          .jsonValue({ maxDepth: 2 })
          .map((v) =>
            JSON.stringify(
              v && typeof v === "object" && !Array.isArray(v) && (v as { all?: unknown }).all === true
                ? { ...v, all: "yes" }
                : v,
            ),
          ),
        garbage.map((g) => JSON.stringify({ subscriptionId: g })),
        garbage.map((g) => JSON.stringify({ subscriptionId: [g], all: g })),
        garbage,
      ),
      type: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded"),
      identity: identityArb,
      method: fc.constantFrom("POST", "POST", "PUT", "DELETE"),
    })
    .map((r): FuzzCase => {
      const headers: Record<string, string> = { "Content-Type": r.type };
      if (r.auth === "good") headers.Authorization = `Bearer ${SECRET}`;
      if (r.auth === "garbage") headers.Authorization = `Bearer ${SECRET.slice(0, -1)}x`;
      if (r.auth === "basic") headers.Authorization = `Basic ${Buffer.from(`x:${SECRET}`).toString("base64")}`;
      return {
        label: `demo-renew ${r.auth}`,
        identity: r.identity,
        method: r.method,
        path: "/api/demo/renew",
        headers,
        body: Buffer.from(r.body),
        expect: "no-5xx",
      };
    });
}

export function headerCase(): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      route: fc.constantFrom(...Object.keys(ROUTES)),
      cookie: fc.constantFrom(
        "better-auth.session_token=%%%",
        "better-auth.session_token=" + "x".repeat(4000),
        "a=b; a=c; ; =;",
        "better-auth.session_token=\u00ff\u00fe",
      ),
    })
    .map((r): FuzzCase => ({
      label: "odd headers",
      identity: "anon",
      method: "POST",
      path: r.route,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: r.cookie.replace(/[^\x20-\x7e]/g, "?"),
        ...originHeader("site"),
      },
      body: Buffer.from("intent=x"),
      expect: "no-5xx",
    }));
}
