import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as releasesRoute from "~/routes/admin/releases";
import { getEnv, setEnv } from "~/server/env.server";
import { digestInstaller } from "~/server/releases/installer-digest.server";
import { postWebhook } from "~/server/webhooks/post-webhook.server";
import { startAdminTestApp } from "../../support/admin-app";
import { throughAdminGuard } from "../../support/admin-route";
import { call, ORIGIN } from "../../support/route-call";
import { testEngines, type TestApp } from "../../support/test-app";

// Every server-side fetch of an address an admin typed goes through the outbound rules (decision
// 0055): the release form's "compute SHA-256 and size" as much as webhook deliveries. A file server
// on 127.0.0.1 counts the requests that reached it: a refused address never connects.

describe.each(testEngines())("outbound fetches of typed addresses (%s)", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let files: http.Server;
  let base: string;
  const reached: string[] = [];
  const installer = Buffer.from("installer bytes ".repeat(500));

  beforeAll(async () => {
    ({ app, adminCookie } = await startAdminTestApp(engine));
    files = http.createServer((req, res) => {
      reached.push(`${req.method} ${req.url}`);
      if (req.url === "/forgekit.zip") return void res.end(installer);
      if (req.url === "/moved") return void res.writeHead(302, { Location: "/forgekit.zip" }).end();
      if (req.url === "/metadata") return void res.writeHead(307, { Location: "http://169.254.169.254/" }).end();
      if (req.url === "/hook") return void res.writeHead(301, { Location: "/elsewhere" }).end("moved");
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => files?.close(resolve));
    await app?.close();
  });

  const compute = (download_url: string) => {
    const body = new URLSearchParams({ intent: "compute-installer", download_url });
    const headers = { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: adminCookie };
    return call(() =>
      throughAdminGuard(
        releasesRoute.action,
        new Request(`${ORIGIN}/admin/releases`, { method: "POST", headers, body }),
      ),
    );
  };
  /** With the production rules (not embedded mode), as a site started with NODE_ENV=production runs. */
  const inProduction = async <T>(work: () => Promise<T>): Promise<T> => {
    const env = getEnv();
    setEnv({ ...env, embedded: false });
    try {
      return await work();
    } finally {
      setEnv(env);
    }
  };

  it("embedded mode and tests: the file on this machine is hashed (loopback allowed, as for webhooks)", async () => {
    const computed = await compute(`${base}/forgekit.zip`);
    expect(computed.status).toBe(200);
    expect(computed.data.digest).toMatchObject({
      size: installer.length,
      sha256: createHash("sha256").update(installer).digest("hex"),
    });
  });

  it("never follows a redirect, in any mode: the admin is told to enter the file's own address", async () => {
    for (const target of ["/moved", "/metadata"]) {
      reached.length = 0;
      const answer = await compute(`${base}${target}`);
      expect(answer.status, target).toBe(422);
      expect(answer.data.toast.description, target).toContain("redirects to");
      expect(reached, target).toEqual([`GET ${target}`]);
    }
  });

  it("with the production rules refuses loopback, private and metadata addresses in every spelling, before connecting", async () => {
    const port = (files.address() as AddressInfo).port;
    const refused = [
      `http://127.0.0.1:${port}/forgekit.zip`,
      `https://127.0.0.1:${port}/forgekit.zip`,
      `https://[::1]:${port}/forgekit.zip`,
      `https://[::127.0.0.1]:${port}/forgekit.zip`,
      `https://[::ffff:7f00:1]:${port}/forgekit.zip`,
      `https://[2002:7f00:1::]:${port}/forgekit.zip`,
      `https://[fec0::1]:${port}/forgekit.zip`,
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.1/forgekit.zip",
    ];
    reached.length = 0;
    await inProduction(async () => {
      for (const url of refused) {
        const answer = await compute(url);
        expect(answer.status, url).toBe(422);
        expect(answer.data.toast.description, url).toMatch(/is refused: .*(private or loopback|only https)/);
      }
      // A name that resolves to loopback is refused by the connection's own lookup.
      const byName = await compute(`https://localhost:${port}/forgekit.zip`);
      expect(byName.status).toBe(422);
      expect(byName.data.toast.description).toContain("resolves to a private or loopback address");
    });
    expect(reached).toEqual([]);
  });

  it("the digest and webhook deliveries share the rules: strict refuses, a redirect is a failed delivery", async () => {
    reached.length = 0;
    await expect(digestInstaller(`${base}/forgekit.zip`, { strict: true })).rejects.toMatchObject({ status: 422 });
    const strict = await postWebhook(
      `https://[::ffff:127.0.0.1]:${new URL(base).port}/hook`,
      "{}",
      {},
      { strict: true },
    );
    expect(strict).toMatchObject({ ok: false, status: null });
    expect(strict.error).toContain("private or loopback");
    expect(reached).toEqual([]);
    const redirected = await postWebhook(`${base}/hook`, "{}", {}, { strict: false });
    expect(redirected).toMatchObject({ ok: false, status: 301, error: "HTTP 301", excerpt: "moved" });
    expect(reached).toEqual(["POST /hook"]);
  });
});
