import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, startLiveServer, type LiveServer } from "../../support/live-server";
import { testEngines } from "../../support/test-app";

describe.each(testEngines())("behind a proxy with TRUST_PROXY=1 (%s)", (engine) => {
  let server: LiveServer;
  const limit = 3;

  beforeAll(async () => {
    server = await startLiveServer(engine, { TRUST_PROXY: "1", AUTH_RATE_LIMIT: String(limit) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const attempt = (forwardedFor: string) =>
    postForm(
      server,
      "/login",
      { email: `nobody-${randomInt(1e9)}@example.com`, password: "wrong-password" },
      { headers: { "X-Forwarded-For": forwardedFor } },
    );

  it("limits by the address the proxy saw: forged left-most X-Forwarded-For entries do not escape the limit", async () => {
    const client = "198.51.100.23";
    const statuses: number[] = [];
    for (let i = 0; i < limit + 2; i++) {
      const forged = `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      statuses.push((await attempt(`${forged}, ${client}`)).status);
    }
    expect(statuses.slice(0, limit).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(limit)).toEqual([429, 429]);
  });

  it("counts each real client separately (the proxy's own address is not the key)", async () => {
    const first = `203.0.113.${randomInt(1, 255)}`;
    for (let i = 0; i < limit + 1; i++) await attempt(first);
    expect((await attempt(first)).status).toBe(429);
    expect((await attempt(`192.0.2.${randomInt(1, 255)}`)).status).not.toBe(429);
  });

  it("does not warn about TRUST_PROXY when it is set", () => {
    expect(server.output()).not.toContain("TRUST_PROXY is not set");
  });
});
