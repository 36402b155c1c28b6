import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { kidOf, parsePublishedKeys } from "../../scripts/lib/published-keys";

// The license:verify tests' keys and signed material (tests/unit/scripts/license-verify*.test.ts).
// Keys made here, signed here: the functions are checked against the contract of docs/desktop-api.md, not
// against the server's signing code.
export function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { publicKey, privateKey, pem, kid: kidOf(publicKey) };
}
export const current = keyPair();
export const next = keyPair();
export const stranger = keyPair();

export const keysDocument = (...pairs: ReturnType<typeof keyPair>[]) =>
  JSON.stringify({ keys: pairs.map((p) => ({ kid: p.kid, algorithm: "ed25519", public_key_pem: p.pem })) });
export const published = parsePublishedKeys(keysDocument(current, next));

export const NOW = new Date("2026-11-23T12:00:00.000Z");

export function signedAnswer(
  body: string,
  signer: { privateKey: KeyObject; kid: string } = current,
  { eol = "\r\n", status = "HTTP/1.1 200 OK", extraHeaders = [] as string[], kid = signer.kid } = {},
): Buffer {
  const signature = sign(null, Buffer.from(body, "utf8"), signer.privateKey).toString("base64");
  const headers = [
    status,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...extraHeaders,
    `Signature: keyid="${kid}", algorithm="ed25519", signature="${signature}"`,
  ];
  return Buffer.concat([Buffer.from(headers.join(eol) + eol + eol, "latin1"), Buffer.from(body, "utf8")]);
}

export function licenseFile(
  payload: Record<string, unknown>,
  signer: { privateKey: KeyObject; kid: string } = current,
) {
  const encoded = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return {
    format: "license/1",
    kid: signer.kid,
    payload: encoded,
    signature: sign(null, Buffer.from(encoded, "ascii"), signer.privateKey).toString("base64"),
  };
}

export const PAYLOAD = {
  license_id: "9b2f6a51-0a57-4d0e-9d7e-2f0f6f1b9d11",
  email: "dana@example.com",
  license_type: "yearly",
  windows_username: "CORP\\dana",
  computer_name: "DESKTOP-42",
  start_date: "2026-11-01T00:00:00.000Z",
  end_date: "2027-11-01T00:00:00.000Z",
  is_trial: false,
  issued_at: "2026-11-23T11:59:00.000Z",
  refresh_by: "2026-12-23T11:59:00.000Z",
};
