import { describe, expect, it } from "vitest";
import { computeSignature, signatureHeader, verifySignature } from "~/server/billing/webhook-signature.server";

// Paddle's SDK test vector (docs/payments.md, "Webhook signatures"): secret, ts and body with those spaces.
const VECTOR = {
  secret: "VALID_SECRET",
  ts: 1698796800,
  body: '{"data": ["1", "2"]}',
  h1: "a300428748dce5c70e4da19bffd60769591ea969c99dea3105d0ec9612cf43f9",
};
const at = (ts: number) => new Date(ts * 1000);

describe("Paddle-Signature", () => {
  it("computes Paddle's own test vector", () => {
    expect(computeSignature(VECTOR.secret, VECTOR.ts, VECTOR.body)).toBe(VECTOR.h1);
  });

  it("accepts the vector's header at its time and up to 5 seconds later", () => {
    const header = `ts=${VECTOR.ts};h1=${VECTOR.h1}`;
    expect(verifySignature(VECTOR.secret, VECTOR.body, header, at(VECTOR.ts))).toBeNull();
    expect(verifySignature(VECTOR.secret, VECTOR.body, header, at(VECTOR.ts + 5))).toBeNull();
  });

  it("refuses a signature older than 5 seconds, or from the future beyond the skew", () => {
    const header = `ts=${VECTOR.ts};h1=${VECTOR.h1}`;
    expect(verifySignature(VECTOR.secret, VECTOR.body, header, at(VECTOR.ts + 6))).toBe("stale");
    expect(verifySignature(VECTOR.secret, VECTOR.body, header, at(VECTOR.ts - 60))).toBe("stale");
  });

  it("refuses a re-serialised body, another secret, or an altered hash", () => {
    const header = `ts=${VECTOR.ts};h1=${VECTOR.h1}`;
    const now = at(VECTOR.ts);
    expect(verifySignature(VECTOR.secret, JSON.stringify(JSON.parse(VECTOR.body)), header, now)).toBe("mismatch");
    expect(verifySignature("OTHER_SECRET", VECTOR.body, header, now)).toBe("mismatch");
    expect(verifySignature(VECTOR.secret, VECTOR.body, `ts=${VECTOR.ts};h1=${"0".repeat(64)}`, now)).toBe("mismatch");
  });

  it("accepts any of several h1 values (secret rotation)", () => {
    const header = `ts=${VECTOR.ts};h1=${"1".repeat(64)};h1=${VECTOR.h1}`;
    expect(verifySignature(VECTOR.secret, VECTOR.body, header, at(VECTOR.ts))).toBeNull();
  });

  it.each([
    [null, "missing"],
    ["", "missing"],
    ["h1=abc", "malformed"],
    [`ts=${VECTOR.ts}`, "malformed"],
    [`ts=soon;h1=${VECTOR.h1}`, "malformed"],
    [`ts=${VECTOR.ts};h1=not-hex`, "malformed"],
  ])("refuses the header %j as %s", (header, failure) => {
    expect(verifySignature(VECTOR.secret, VECTOR.body, header, at(VECTOR.ts))).toBe(failure);
  });

  it("signs what it verifies", () => {
    const now = new Date();
    const body = JSON.stringify({ event_id: "evt_1", data: { ok: true } });
    expect(
      verifySignature("s3cret-s3cret-s3cret", body, signatureHeader("s3cret-s3cret-s3cret", body, now), now),
    ).toBeNull();
  });
});
