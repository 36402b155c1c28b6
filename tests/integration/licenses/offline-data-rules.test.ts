import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiV1 } from "../../../server/api-v1";
import { OFFLINE_DATA_MESSAGES as M } from "~/domain/offline-data";
import { NOT_ALLOWED_CHARACTERS_MESSAGE } from "~/domain/text-input";
import * as licensesRoute from "~/routes/licenses";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { licenses, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, formRequest, routeArgs, signInCookie } from "../../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const USER = DEMO_ACCOUNTS[1]!;

/**
 * The desktop API's activation binds offline data only by the licenses page's rule
 * (checkOfflineData, app/domain/offline-data.ts): what the page refuses, the API refuses with a
 * 400 carrying the same message and naming the field, and nothing is bound.
 */
describe.each(testEngines())("offline data: one rule for the licenses page and the desktop API (%s)", (engine) => {
  let app: TestApp;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", API_RATE_LIMIT: "100000" });
    await seedDemoData(app.database.db);
    setPaymentProvider(connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null }));
    const site = express();
    site.use("/api/v1", apiV1);
    server = http.createServer(site);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await app?.close();
  });

  /** The seeded monthly license that renews: active and unbound. */
  const unbound = async () => {
    const [user] = await app.database.db.select().from(users).where(eq(users.email, USER.email));
    const owned = await app.database.db.select().from(licenses).where(eq(licenses.user_id, user!.id));
    return owned.find((l) => l.paddle_subscription_id === "sub_demo_seed_renewing")!;
  };

  const activate = async (body: Record<string, unknown>) => {
    const response = await fetch(`${base}/api/v1/licenses/activate`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ nonce: "nonce-offline-rules", ...body }),
    });
    return { status: response.status, json: (await response.json()) as { error?: string; field?: string } };
  };

  const CASES: { windows_username: string; computer_name: string; field: string; message: string }[] = [
    {
      windows_username: "a/b:c*?",
      computer_name: "BUILD-01",
      field: "windows_username",
      message: M.usernameCharacters,
    },
    { windows_username: "dana", computer_name: "C".repeat(37), field: "computer_name", message: M.computerTooLong },
    {
      windows_username: "u".repeat(21),
      computer_name: "BUILD-01",
      field: "windows_username",
      message: M.usernameTooLong,
    },
    { windows_username: "dana", computer_name: "my pc", field: "computer_name", message: M.computerCharacters },
    { windows_username: "dana", computer_name: "12345", field: "computer_name", message: M.computerDigits },
    { windows_username: "...", computer_name: "BUILD-01", field: "windows_username", message: M.usernameDots },
    { windows_username: "\\dana", computer_name: "BUILD-01", field: "windows_username", message: M.usernameDomain },
    {
      windows_username: "da\u0007na",
      computer_name: "BUILD-01",
      field: "windows_username",
      message: NOT_ALLOWED_CHARACTERS_MESSAGE,
    },
  ];

  it("the API answers 400 with the page's message for each value the page refuses, and binds nothing", async () => {
    const license = await unbound();
    const cookie = await signInCookie(USER.email, USER.password);
    for (const { windows_username, computer_name, field, message } of CASES) {
      const page = await call(() =>
        licensesRoute.action(
          routeArgs(
            formRequest(
              "/licenses",
              { intent: "offline-data", licenseId: license.id, windows_username, computer_name },
              cookie,
            ),
          ),
        ),
      );
      expect(page.status, `${windows_username} / ${computer_name} on the page`).toBe(400);
      expect(JSON.stringify(page.data)).toContain(JSON.stringify(message).slice(1, -1));

      const api = await activate({ key: license.license_key, windows_username, computer_name });
      expect(api, `${windows_username} / ${computer_name} through the API`).toEqual({
        status: 400,
        json: expect.objectContaining({ error: message, field }),
      });
    }
    expect(await unbound()).toMatchObject({ windows_username: null, computer_name: null });
  });

  it("values the page accepts still bind through the API (trimmed, as the page stores them)", async () => {
    const license = await unbound();
    const answer = await activate({
      key: license.license_key,
      windows_username: "  CORP\\dana ",
      computer_name: " DESKTOP-42 ",
    });
    expect(answer.status).toBe(200);
    expect(await unbound()).toMatchObject({ windows_username: "CORP\\dana", computer_name: "DESKTOP-42" });
    expect((await activate({ key: license.license_key, windows_username: "dana" })).json).toMatchObject({
      field: "computer_name",
      error: "computer_name is required.",
    });
  });
});
