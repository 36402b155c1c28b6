import { verify } from "node:crypto";
import { expect } from "vitest";

/**
 * A desktop tool's calls to /api/v1 of a running site (in-process or a server process): every answer
 * is checked to be JSON signed over its exact bytes by a key /keys publishes, as the tool must check it.
 */

const SIGNATURE = /^keyid="([A-Za-z0-9_-]{16})", algorithm="ed25519", signature="([A-Za-z0-9+/]+={0,2})"$/;

export interface SignedAnswer {
  status: number;
  headers: Headers;
  json: any;
}

export function desktopClient(base: string, { ip }: { ip?: string } = {}) {
  let keys: { kid: string; public_key_pem: string }[] | null = null;
  const extra: Record<string, string> = ip ? { "X-Forwarded-For": ip } : {};

  async function raw(method: string, path: string, body?: unknown) {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  function checkSigned(headers: Headers, bytes: Buffer) {
    const match = SIGNATURE.exec(headers.get("signature") ?? "");
    expect(match, `Signature header: ${headers.get("signature")}`).not.toBeNull();
    const key = keys!.find((k) => k.kid === match![1]);
    expect(key, `kid ${match![1]} is published`).toBeDefined();
    expect(verify(null, bytes, key!.public_key_pem, Buffer.from(match![2]!, "base64"))).toBe(true);
  }

  /** A request whose answer must verify; the keys are fetched (and verified) once. */
  async function call(method: string, path: string, body?: unknown): Promise<SignedAnswer> {
    if (!keys) {
      const { response, bytes } = await raw("GET", "/keys");
      keys = JSON.parse(bytes.toString("utf8")).keys;
      checkSigned(response.headers, bytes);
    }
    const { response, bytes } = await raw(method, path, body);
    checkSigned(response.headers, bytes);
    return { status: response.status, headers: response.headers, json: JSON.parse(bytes.toString("utf8")) };
  }

  return {
    call,
    post: (path: string, body: Record<string, unknown>) => call("POST", path, { nonce: "nonce-machines-1", ...body }),
    get: (path: string) => call("GET", path),
    /** The keys /keys published (after the first call). */
    publishedKeys: () => keys ?? [],
  };
}

/** A license file's payload (after checking its signature with the key its kid names). */
export function licenseFilePayload(file: any, keys: { kid: string; public_key_pem: string }[]): any {
  const key = keys.find((k) => k.kid === file.kid)!;
  expect(
    verify(null, Buffer.from(file.payload, "ascii"), key.public_key_pem, Buffer.from(file.signature, "base64")),
  ).toBe(true);
  return JSON.parse(Buffer.from(file.payload, "base64url").toString("utf8"));
}
