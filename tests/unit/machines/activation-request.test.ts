import { describe, expect, it } from "vitest";
import {
  ACTIVATION_REQUEST_FORMAT,
  ACTIVATION_REQUEST_MAX_SIZE,
  ACTIVATION_REQUEST_TEXTS,
  activationRequestText,
  parseActivationRequest,
  type ActivationRequestField,
} from "~/domain/activation-request";

// The activation request a tool without a network writes (decision 0071): every shape the page may be given.

const request = {
  format: ACTIVATION_REQUEST_FORMAT,
  license_key: "ganLlPc4cuwoLwlG9Y5SWQ==:vxmpAr6Q",
  fingerprint: "3f1c0b9e2a7d4c553f1c0b9e2a7d4c55",
  name: "DESK-OFFLINE",
  nonce: "5e4af485114bd548cd591a3d420d1dc3",
  created_at: "2026-11-28T09:30:00.000Z",
};
const json = (value: unknown) => JSON.stringify(value);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("reading an activation request", () => {
  it("reads the JSON object, pretty-printed or on one line, with a byte-order mark or surrounding blanks", () => {
    const expected = {
      license_key: request.license_key,
      fingerprint: request.fingerprint,
      name: request.name,
      nonce: request.nonce,
      created_at: request.created_at,
    };
    expect(parseActivationRequest(json(request))).toEqual({ ok: true, request: expected });
    expect(parseActivationRequest(JSON.stringify(request, null, 2))).toEqual({ ok: true, request: expected });
    expect(parseActivationRequest(`\uFEFF\n  ${json(request)}\r\n`)).toEqual({ ok: true, request: expected });
  });

  it("reads its base64, standard or url-safe, padded or not, wrapped over lines", () => {
    const bytes = Buffer.from(json({ ...request, name: "Dana's PC ✓" }), "utf8");
    const standard = bytes.toString("base64");
    for (const text of [
      standard,
      standard.replace(/=+$/, ""),
      bytes.toString("base64url"),
      standard.replace(/(.{60})/g, "$1\n"),
    ]) {
      const parsed = parseActivationRequest(text);
      expect(parsed.ok && parsed.request.name).toBe("Dana's PC ✓");
    }
  });

  it("keeps platform and app version when sent, trims names, and ignores fields it does not know", () => {
    const parsed = parseActivationRequest(
      json({ ...request, name: "  DESK  ", platform: "Windows 11 Pro", app_version: "2.4.0", future: { x: 1 } }),
    );
    expect(parsed).toEqual({
      ok: true,
      request: expect.objectContaining({ name: "DESK", platform: "Windows 11 Pro", app_version: "2.4.0" }),
    });
    expect(parsed.ok && "future" in parsed.request).toBe(false);
    // null is "not sent" for the optional fields.
    const nulls = parseActivationRequest(json({ ...request, platform: null, app_version: null }));
    expect(nulls.ok && nulls.request).not.toHaveProperty("platform");
  });

  it("accepts a creation time with an offset and without seconds", () => {
    for (const created_at of ["2026-11-28T10:30:00+01:00", "2026-11-28T09:30Z", "2026-11-28T09:30:00.123456Z"])
      expect(parseActivationRequest(json({ ...request, created_at })).ok).toBe(true);
  });

  it("refuses nothing at all: blank text is 'missing'", () => {
    for (const text of ["", "   ", "\n\t", "\uFEFF"])
      expect(parseActivationRequest(text)).toEqual({
        ok: false,
        code: "activation_request_missing",
        message: ACTIVATION_REQUEST_TEXTS.missing,
      });
  });

  it("refuses text over the size limit before reading it", () => {
    const padded = json({ ...request, padding: "x".repeat(ACTIVATION_REQUEST_MAX_SIZE) });
    expect(parseActivationRequest(padded)).toMatchObject({ ok: false, code: "activation_request_too_large" });
  });

  it("refuses what is not a request: not JSON, not base64 of JSON, not an object, another format", () => {
    const notRequests = [
      "hello",
      "{not json",
      "{}",
      "[1,2]",
      json([request]),
      Buffer.from("[1]").toString("base64"),
      Buffer.from("not json at all").toString("base64"),
      Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString("base64"), // not UTF-8
      "QQ", // base64 of "A": not JSON
      "A", // no base64 has one character left over
      "abc$def",
      json({ ...request, format: undefined }),
      json({ ...request, format: "license/1" }),
      json({ ...request, format: 1 }),
      // A license file is not a request.
      json({ format: "license/1", kid: "k", payload: "p", signature: "s" }),
      "null",
      "42",
      '"text"',
    ];
    for (const text of notRequests)
      expect(parseActivationRequest(text), text).toEqual({
        ok: false,
        code: "not_an_activation_request",
        message: ACTIVATION_REQUEST_TEXTS.notARequest,
      });
  });

  it("says when a request comes from a newer tool", () => {
    expect(parseActivationRequest(json({ ...request, format: "activation-request/2" }))).toEqual({
      ok: false,
      code: "activation_request_version",
      message: ACTIVATION_REQUEST_TEXTS.version,
    });
  });

  it("names the first field that is missing or malformed", () => {
    const cases: [ActivationRequestField, unknown][] = [
      ["license_key", undefined],
      ["license_key", ""],
      ["license_key", "   "],
      ["license_key", 42],
      ["license_key", "a\u0000b"],
      ["license_key", "k".repeat(1025)],
      ["fingerprint", undefined],
      ["fingerprint", "short"],
      ["fingerprint", "has spaces in it somewhere"],
      ["fingerprint", "f".repeat(129)],
      ["fingerprint", 1234567890123456],
      ["name", undefined],
      ["name", ""],
      ["name", "n".repeat(65)],
      ["name", "line\nbreak"],
      ["name", ["DESK"]],
      ["nonce", undefined],
      ["nonce", "short"],
      ["nonce", "n".repeat(129)],
      ["nonce", "ünïcödé-nonce"],
      ["nonce", 12345678],
      ["created_at", undefined],
      ["created_at", "yesterday"],
      ["created_at", "2026-11-28"],
      ["created_at", "2026-11-28T09:30:00"],
      ["created_at", "2026-13-45T09:30:00Z"],
      ["created_at", 1764322200000],
      ["platform", ""],
      ["platform", "p".repeat(65)],
      ["platform", 11],
      ["app_version", "v".repeat(33)],
      ["app_version", { major: 2 }],
    ];
    for (const [field, value] of cases) {
      expect(parseActivationRequest(json({ ...request, [field]: value })), `${field}: ${String(value)}`).toEqual({
        ok: false,
        code: "activation_request_invalid",
        message: ACTIVATION_REQUEST_TEXTS.invalid(field),
        field,
      });
    }
  });

  it("says which field in words, never the JSON name", () => {
    expect(ACTIVATION_REQUEST_TEXTS.invalid("created_at")).toBe(
      "The activation request has no valid creation time. Create a new request in the tool.",
    );
  });
});

describe("the text of an uploaded request file", () => {
  it("is UTF-8, or UTF-16 when the file starts with its byte-order mark", () => {
    const text = json(request);
    expect(activationRequestText(utf8(text))).toBe(text);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    expect(parseActivationRequest(activationRequestText(le)).ok).toBe(true);
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(parseActivationRequest(activationRequestText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).ok).toBe(true);
  });

  it("gives text the parser refuses for bytes that are not text", () => {
    const binary = Uint8Array.from([0x00, 0x9f, 0x92, 0x96, 0x7b]);
    expect(parseActivationRequest(activationRequestText(binary))).toMatchObject({
      ok: false,
      code: "not_an_activation_request",
    });
  });
});
