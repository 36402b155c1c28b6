import { createPublicKey, verify } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "~/routes/licenses.file";
import { licenses, users, type License } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { signingKeys } from "~/server/license-api/signing.server";
import { startAdminTestApp } from "../../support/admin-app";
import { call, getRequest, routeArgs } from "../../support/route-call";
import { testEngines, type TestApp } from "../../support/test-app";

const [, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("Download license file on the licenses page on %s", (engine) => {
  let app: TestApp;
  let userCookie: string;
  let adminCookie: string;
  let own: License[];
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
    const [user] = await app.database.db.select().from(users).where(eq(users.email, USER!.email));
    own = await app.database.db.select().from(licenses).where(eq(licenses.user_id, user!.id));
  });
  afterAll(async () => app?.close());

  const download = (licenseId: string, cookie: string) =>
    call(() =>
      fileRoute.loader({ ...routeArgs(getRequest(`/licenses/${licenseId}/file`, cookie)), params: { licenseId } }),
    );

  it("gives the owner the signed license file of a valid license, as an attachment", async () => {
    const tester = own.find((l) => l.license_type === "tester")!;
    const result = await call(async () => {
      const response = (await fileRoute.loader({
        ...routeArgs(getRequest(`/licenses/${tester.id}/file`, userCookie)),
        params: { licenseId: tester.id },
      })) as Response;
      return { status: response.status, headers: response.headers, text: await response.text() };
    });
    const answer = result.data as { status: number; headers: Headers; text: string };
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; filename="forgekit-[0-9a-f]{8}\.lic"$/);
    expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
    const file = JSON.parse(answer.text) as { format: string; kid: string; payload: string; signature: string };
    expect(file.format).toBe("license/1");
    const key = signingKeys().published.find((k) => k.kid === file.kid)!;
    expect(key).toBeDefined();
    expect(
      verify(
        null,
        Buffer.from(file.payload, "ascii"),
        createPublicKey(key.public_key_pem),
        Buffer.from(file.signature, "base64"),
      ),
    ).toBe(true);
    const payload = JSON.parse(Buffer.from(file.payload, "base64url").toString("utf8")) as Record<string, unknown>;
    expect(payload).toMatchObject({ license_id: tester.id, email: USER!.email, license_type: "tester" });
  });

  it("another user's license is not found, and a signed-out visitor goes to /login", async () => {
    const tester = own.find((l) => l.license_type === "tester")!;
    expect((await download(tester.id, adminCookie)).status).toBe(404);
    expect((await download("not-a-uuid", userCookie)).status).toBe(404);
    const signedOut = await download(tester.id, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
  });

  it.each([
    ["revoked", (l: License) => l.status === "revoked"],
    ["expired", (l: License) => l.status === "active" && !l.is_trial && l.end_date.getTime() < Date.now()],
    ["refund requested", (l: License) => l.status === "refund_requested"],
  ])("a %s license has no file: back to /licenses with the reason", async (_name, pick) => {
    const license = own.find(pick)!;
    const result = await download(license.id, userCookie);
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toBe("/licenses");
  });
});
