import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, webhook_endpoints } from "~/server/db/schema";
import { getEnv, setEnv } from "~/server/env.server";
import { webhookUrlProblem } from "~/server/webhooks/webhook-address.server";
import { startAdminTestApp } from "../../support/admin-app";
import { testEngines, type TestApp } from "../../support/test-app";
import { webhookAdmin } from "../../support/webhook-admin";

// Webhook endpoints (decision 0044): admins add them with a URL and events, see the signing secret once,
// enable, disable and delete them, every change audited; bad input is a 400 naming the field, nothing stored.

describe.each(testEngines())("webhook endpoints (%s)", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let userCookie: string;
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
  });
  afterAll(async () => app?.close());

  const db = () => app.database.db;
  const admin = webhookAdmin(() => adminCookie);
  const endpointCount = async () =>
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(webhook_endpoints)
    )[0]!.n;
  const auditOf = async (id: string) =>
    (await db().select().from(audit_log).where(eq(audit_log.target_id, id)).orderBy(audit_log.created_at)).map(
      (entry) => entry.action,
    );

  it("shows the secret once, keeps it to sign, never lists it, and audits each change", async () => {
    const created = await admin.create("http://127.0.0.1:9/created", ["license.created", "release.published"]);
    expect(created.status).toBe(200);
    const secret = created.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const [row] = await db().select().from(webhook_endpoints).orderBy(desc(webhook_endpoints.created_at)).limit(1);
    expect(row!.secret).toBe(secret);
    expect(row!.events).toEqual(["license.created", "release.published"]);
    const page = await admin.page();
    expect(page.status).toBe(200);
    expect(page.data.endpoints.find((e: { id: string }) => e.id === row!.id).url).toBe("http://127.0.0.1:9/created");
    expect(JSON.stringify(page.data)).not.toContain(secret);

    expect((await admin.intent("disable", { id: row!.id })).status).toBe(200);
    expect((await admin.intent("disable", { id: row!.id })).status).toBe(409);
    const [disabled] = await db().select().from(webhook_endpoints).where(eq(webhook_endpoints.id, row!.id));
    expect([disabled!.enabled, disabled!.disabled_reason]).toEqual([false, "admin"]);
    expect((await admin.intent("enable", { id: row!.id })).status).toBe(200);
    expect((await admin.intent("delete", { id: row!.id })).status).toBe(200);
    expect(await db().select().from(webhook_endpoints).where(eq(webhook_endpoints.id, row!.id))).toEqual([]);
    expect(await auditOf(row!.id)).toEqual([
      "webhook_endpoint.create",
      "webhook_endpoint.disable",
      "webhook_endpoint.enable",
      "webhook_endpoint.delete",
    ]);
    expect(JSON.stringify(await db().select().from(audit_log))).not.toContain(secret);
  });

  it("refuses unknown events, no events and malformed URLs by field, storing nothing", async () => {
    const before = await endpointCount();
    const cases: [string, string[], string, RegExp][] = [
      ["http://127.0.0.1:9/x", ["license.created", "license.stolen"], "events", /Unknown event license\.stolen/],
      ["http://127.0.0.1:9/x", [], "events", /Choose at least one event/],
      ["", ["license.created"], "url", /Enter the endpoint's URL/],
      ["not a url", ["license.created"], "url", /Enter a full URL/],
      ["ftp://example.com/x", ["license.created"], "url", /must start with https/],
      ["https://user:pw@example.com/x", ["license.created"], "url", /user name or password/],
    ];
    for (const [url, events, field, message] of cases) {
      const answer = await admin.create(url, events);
      expect(answer.status, `${url} ${events}`).toBe(400);
      expect(answer.data.fieldErrors[field][0]).toMatch(message);
    }
    expect(await endpointCount()).toBe(before);
  });

  it("in production refuses http and addresses that resolve to private or loopback ones", async () => {
    const before = await endpointCount();
    const env = getEnv();
    setEnv({ ...env, embedded: false });
    try {
      const cases: [string, RegExp][] = [
        ["http://example.com/hook", /must use https in production/],
        ["https://127.0.0.1/hook", /private or loopback address \(127\.0\.0\.1\)/],
        ["https://localhost/hook", /private or loopback address/],
        ["https://10.1.2.3/hook", /private or loopback address/],
        ["https://[::1]/hook", /private or loopback address/],
        ["https://169.254.169.254/latest/meta-data", /private or loopback address/],
      ];
      for (const [url, message] of cases) {
        const answer = await admin.create(url, ["license.created"]);
        expect(answer.status, url).toBe(400);
        expect(answer.data.fieldErrors.url[0], url).toMatch(message);
      }
      expect(await webhookUrlProblem("https://93.184.215.14/hook")).toBeNull();
    } finally {
      setEnv(env);
    }
    expect(await endpointCount()).toBe(before);
  });

  it("is the admins' only: a customer's post changes nothing", async () => {
    const before = await endpointCount();
    const answer = await admin.post(
      [
        ["intent", "create-endpoint"],
        ["url", "http://127.0.0.1:9/x"],
        ["events", "license.created"],
      ],
      userCookie,
    );
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.data?.secret).toBeUndefined();
    expect(await endpointCount()).toBe(before);
  });
});
