import { createHash, generateKeyPairSync, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveSignIn, send, startLiveServer, type LiveResponse, type LiveServer } from "../../support/live-server";
import { testEngines } from "../../support/test-app";

const ENGINES = testEngines({ pglite: "always", because: "the desktop API's rate limits count in memory on PGlite" });

const DEMO_USER = { email: "demo@forgekit.example", password: "user-demo-1" };
const SIGNATURE = /^keyid="([A-Za-z0-9_-]{16})", algorithm="ed25519", signature="([A-Za-z0-9+/]+={0,2})"$/;
const RATE_LIMIT = 40;

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const der = publicKey.export({ type: "spki", format: "der" });
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem,
    kid: createHash("sha256").update(der).digest("base64url").slice(0, 16),
  };
};

describe.each(ENGINES)("desktop API on the built site (%s)", (engine) => {
  const signing = pair();
  const next = pair();
  let server: LiveServer;
  let keys: { kid: string; public_key_pem: string }[];

  beforeAll(async () => {
    server = await startLiveServer(engine, {
      AUTH_RATE_LIMIT: "1000",
      API_RATE_LIMIT: String(RATE_LIMIT),
      LICENSE_SIGNING_KEY: signing.privatePem,
      LICENSE_PUBLISHED_KEYS: next.publicPem,
    });
    keys = JSON.parse((await send(server, "GET", "/api/v1/keys")).body).keys;
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The answer is JSON, signed by the published key it names, and sets no cookie. */
  const signed = (res: LiveResponse): string => {
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["set-cookie"]).toBeUndefined();
    const match = SIGNATURE.exec(String(res.headers.signature));
    expect(match, String(res.headers.signature)).not.toBeNull();
    const key = keys.find((k) => k.kid === match![1]);
    expect(key).toBeDefined();
    expect(verify(null, Buffer.from(res.body, "utf8"), key!.public_key_pem, Buffer.from(match![2]!, "base64"))).toBe(
      true,
    );
    return match![1]!;
  };
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    send(server, "POST", path, { headers: { "Content-Type": "application/json", ...headers }, body });

  it("publishes the signing key and the next key, and signs with the configured key", async () => {
    expect(keys.map((k) => k.kid)).toEqual([signing.kid, next.kid]);
    expect(keys[1]!.public_key_pem).toBe(next.publicPem);
    const res = await send(server, "GET", "/api/v1/keys");
    expect(res.status).toBe(200);
    expect(signed(res)).toBe(signing.kid);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("ignores cookies and the site's Origin rule: a cross-site request with a session answers as without, no Set-Cookie", async () => {
    const cookie = await liveSignIn(server, DEMO_USER.email, DEMO_USER.password);
    expect(cookie).not.toBe("");
    const body = JSON.stringify({ key: "some-key", nonce: "cookie-nonce" });
    const without = await post("/api/v1/licenses/validate", body);
    const withCookie = await post("/api/v1/licenses/validate", body, {
      Cookie: cookie,
      Origin: "https://elsewhere.example",
    });
    for (const res of [without, withCookie]) {
      expect(res.status).toBe(200);
      signed(res);
    }
    const strip = (text: string) => ({ ...JSON.parse(text), issued_at: undefined });
    expect(strip(withCookie.body)).toEqual(strip(without.body));
    expect(strip(without.body)).toMatchObject({ code: "NOT_FOUND", nonce: "cookie-nonce" });
  });

  it("answers its own 413 and control characters in the query as signed JSON, not the site's text", async () => {
    const large = await post(
      "/api/v1/licenses/validate",
      JSON.stringify({ key: "k".repeat(100_000), nonce: "n".repeat(8) }),
    );
    expect(large.status).toBe(413);
    signed(large);
    expect(JSON.parse(large.body).error).toMatch(/64 KB/);
    const control = await send(server, "GET", "/api/v1/licenses/file?key=a%00b");
    expect(control.status).toBe(400);
    signed(control);
    expect(JSON.parse(control.body)).toMatchObject({ field: "key" });
    const missing = await send(server, "GET", "/api/v1/no-such-thing");
    expect(missing.status).toBe(404);
    signed(missing);
  });

  it("serves the OpenAPI 3.1 document of every endpoint, signed", async () => {
    const res = await send(server, "GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    signed(res);
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/events",
        "/keys",
        "/leases",
        "/leases/{id}",
        "/leases/{id}/heartbeat",
        "/licenses/activate",
        "/licenses/file",
        "/licenses/validate",
        "/machines/activate",
        "/machines/deactivate",
        "/openapi.json",
        "/releases",
        "/releases/{version}",
        "/updates/latest",
      ].sort(),
    );
    expect(doc.components.headers.Signature).toBeDefined();
    // The eight codes of the first desktop API, the three of machines, FINGERPRINT_REQUIRED and
    // EXPIRED_FALLBACK (decision 0070).
    expect(doc.components.schemas.Code.enum).toHaveLength(13);
    expect(doc.components.schemas.Code.enum).toEqual(
      expect.arrayContaining(["MACHINE_NOT_ACTIVATED", "MACHINE_LIMIT", "DEACTIVATION_LIMIT", "EXPIRED_FALLBACK"]),
    );
    for (const status of ["400", "413", "429"])
      expect(doc.paths["/licenses/validate"].post.responses[status]).toBeDefined();
  });

  it(`limits each client IP to API_RATE_LIMIT (${RATE_LIMIT}) requests a minute: 429 with Retry-After, signed`, async () => {
    let limited: LiveResponse | undefined;
    for (let i = 0; i <= RATE_LIMIT && !limited; i++) {
      const res = await send(server, "GET", "/api/v1/updates/latest?current=1.0.0");
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(200);
    }
    expect(limited).toBeDefined();
    const retryAfter = Number(limited!.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    signed(limited!);
    expect(JSON.parse(limited!.body)).toMatchObject({ error: expect.any(String), issued_at: expect.any(String) });
    // The site itself is not limited by the API's counter.
    expect((await send(server, "GET", "/healthz")).status).toBe(200);
  });
});
