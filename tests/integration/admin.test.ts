import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/admin/index";
import * as userRoute from "~/routes/admin/user";
import * as csvRoute from "~/routes/admin/audit-csv";
import { audit_log, demo_billing, job_keys, licenses, payments, releases, users } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../support/admin-app";
import { adminFile, throughAdminGuard } from "../support/admin-route";
import { call, formRequest, getRequest } from "../support/route-call";
import { createUser, testEngines, type TestApp } from "../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("administration on %s", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let userCookie: string;
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
  });
  afterAll(async () => app?.close());

  const db = () => app.database.db;
  const load = (query: string, cookie = adminCookie) =>
    call(() => throughAdminGuard(adminRoute.loader, getRequest(`/admin${query}`, cookie)));
  const postTo = (path: string, fields: Record<string, string | string[]>, cookie: string) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const value of [v].flat()) body.append(k, value);
    const request = formRequest(path, {}, cookie);
    return new Request(request.url, { method: "POST", headers: request.headers, body });
  };
  const post = (fields: Record<string, string | string[]>, cookie = adminCookie) =>
    call(() => throughAdminGuard(adminRoute.action, postTo("/admin", fields, cookie)));
  /** A support action on a user's page (licenses: revoke, add tester, reset offline data). */
  const postUser = (userId: string, fields: Record<string, string | string[]>, cookie = adminCookie) =>
    call(() => throughAdminGuard(userRoute.action, postTo(`/admin/users/${userId}`, fields, cookie), { userId }));
  const loadUser = (userId: string, cookie = adminCookie) =>
    call(() => throughAdminGuard(userRoute.loader, getRequest(`/admin/users/${userId}`, cookie), { userId }));
  const csv = (query: string, cookie = adminCookie) =>
    adminFile(csvRoute.loader, getRequest(`/admin/audit.csv${query}`, cookie));
  const auditCount = async () =>
    (
      (await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(audit_log)) as { n: number }[]
    )[0]!.n;
  const userLicenses = async (userId: string) => db().select().from(licenses).where(eq(licenses.user_id, userId));

  describe("guards", () => {
    it("every admin page (each tab, a user's page) sends signed-out visitors and ordinary users to /", async () => {
      const [demo] = await db().select().from(users).where(eq(users.email, USER.email));
      for (const cookie of ["", userCookie]) {
        for (const tab of ["", "?tab=overview", "?tab=users", "?tab=releases", "?tab=audit"]) {
          const result = await load(tab, cookie);
          expect(result.status).toBe(302);
          expect(result.headers.get("Location")).toBe("/");
        }
        const page = await loadUser(demo!.id, cookie);
        expect(page.status).toBe(302);
        expect(page.headers.get("Location")).toBe("/");
      }
      expect((await load("")).status).toBe(200);
      expect((await loadUser(demo!.id)).status).toBe(200);
    });

    it("the CSV export answers 401 signed out and 403 to users, with no data", async () => {
      const out = await csv("", "");
      expect(out.status).toBe(401);
      expect(await out.text()).not.toContain("license");
      const user = await csv("", userCookie);
      expect(user.status).toBe(403);
      expect(await user.text()).toBe("Only administrators can do this.\n");
    });

    it("every action called directly by a user answers 403, signed out 401, and changes nothing", async () => {
      const target = await createUser(db(), `guard-${engine}@example.com`);
      const [active] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "tester",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      const [release] = await db().select().from(releases).limit(1);
      const before = { audit: await auditCount(), releases: (await db().select().from(releases)).length };
      const userAttempts: Record<string, string | string[]>[] = [
        { intent: "revoke", licenseId: active!.id, reason: "test" },
        { intent: "add-tester", days: "30" },
        { intent: "reset-offline", licenseId: active!.id },
        { intent: "resend-license", licenseId: active!.id },
      ];
      for (const fields of userAttempts) {
        expect((await postUser(target.id, fields, userCookie)).status).toBe(403);
        expect((await postUser(target.id, fields, "")).status).toBe(401);
      }
      const attempts: Record<string, string | string[]>[] = [
        { intent: "save-release", version: "9.9.9", title: "", release_date: "2026-12-01", release_notes: ["x"] },
        {
          intent: "save-release",
          id: release!.id,
          version: "hacked",
          title: "",
          release_date: "2026-12-01",
          release_notes: ["x"],
        },
        { intent: "delete-release", id: release!.id },
      ];
      for (const fields of attempts) {
        expect((await post(fields, userCookie)).status).toBe(403);
        expect((await post(fields, "")).status).toBe(401);
      }
      expect((await userLicenses(target.id)).map((l) => l.status)).toEqual(["active"]);
      expect(await auditCount()).toBe(before.audit);
      expect(await db().select().from(releases)).toHaveLength(before.releases);
      expect((await db().select().from(releases).where(eq(releases.id, release!.id)))[0]!.version).toBe(
        release!.version,
      );
    });
  });

  describe("user search", () => {
    it("finds by full name (case-insensitive), by license e-mail and by account e-mail, each user once", async () => {
      const ada = await createUser(db(), `ada-${engine}@lovelace.example`, { fullName: "Ada Lovelace" });
      await db()
        .insert(licenses)
        .values([
          {
            user_id: ada.id,
            email: `ada.work-${engine}@analytical.example`,
            license_key: "k1",
            license_type: "tester",
            end_date: new Date(Date.now() + DAY),
          },
          {
            user_id: ada.id,
            email: `ada.work-${engine}@analytical.example`,
            license_key: "k2",
            license_type: "tester",
            end_date: new Date(Date.now() + DAY),
          },
        ]);
      const ids = async (q: string) =>
        ((await load(`?tab=users&q=${encodeURIComponent(q)}`)).data.users.value.users as { id: string }[]).map(
          (r) => r.id,
        );
      expect(await ids("LOVELACE")).toEqual([ada.id]);
      expect(await ids("analytical")).toEqual([ada.id]);
      expect(await ids(`ada-${engine}@`)).toEqual([ada.id]);
      expect(await ids("ada")).toEqual([ada.id]);
      expect(await ids("nobody-matches-this")).toEqual([]);
      // LIKE wildcards in the term are literal characters.
      expect(await ids("%%%")).toEqual([]);
    });

    it("finds by license short id (as a person types it), license key, subscription and transaction id", async () => {
      const [renewing] = await db()
        .select()
        .from(licenses)
        .where(eq(licenses.paddle_subscription_id, "sub_demo_seed_renewing"));
      const [payment] = await db().select().from(payments).where(eq(payments.license_id, renewing!.id)).limit(1);
      const ids = async (q: string) =>
        ((await load(`?tab=users&q=${encodeURIComponent(q)}`)).data.users.value.users as { id: string }[]).map(
          (r) => r.id,
        );
      const owner = [renewing!.user_id];
      expect(await ids(renewing!.short_id)).toEqual(owner);
      expect(await ids(renewing!.short_id.toLowerCase().replace(/-/g, " "))).toEqual(owner);
      expect(await ids(renewing!.license_key)).toEqual(owner);
      expect(await ids("sub_demo_seed_renewing")).toEqual(owner);
      expect(await ids(payment!.id)).toEqual(owner);
      expect(await ids("FK-ZZZZ-ZZZZ")).toEqual([]);
    });

    it("without a term lists every user newest first, 50 a page, with later pages", async () => {
      const made: string[] = [];
      for (let i = 0; i < 55; i++) {
        made.push((await createUser(db(), `list-${engine}-${i}@example.com`, { fullName: `Listed ${i}` })).id);
        await db()
          .update(users)
          .set({ createdAt: new Date(Date.now() + 60_000 + i * 1000) })
          .where(eq(users.id, made.at(-1)!));
      }
      const first = (await load("?tab=users&q=%20%20")).data.users;
      expect(first.term).toBe("");
      expect(first.value.users).toHaveLength(50);
      expect(first.value.hasNext).toBe(true);
      expect(first.value.users.slice(0, 3).map((u: { id: string }) => u.id)).toEqual(made.slice(-3).reverse());
      const second = (await load("?tab=users&page=2")).data.users.value;
      expect(second.page).toBe(2);
      expect(second.users.map((u: { id: string }) => u.id).slice(0, 5)).toEqual(made.slice(0, 5).reverse());
      const firstIds = new Set(first.value.users.map((u: { id: string }) => u.id));
      expect(second.users.some((u: { id: string }) => firstIds.has(u.id))).toBe(false);
      // A search's later pages too: 55 users are "Listed …".
      const found = (await load("?tab=users&q=Listed&page=2")).data.users.value;
      expect(found.users.length).toBeGreaterThanOrEqual(5);
      expect((await load("?tab=users&q=Listed")).data.users.value.hasNext).toBe(true);
      expect((await load("?tab=users&page=abc")).data.users.page).toBe(1);
    });
  });

  describe("a user's page", () => {
    it("shows sign-up, confirmation, last sign-in, role, licenses with short ids, payments, subscriptions, audit", async () => {
      const [demo] = await db().select().from(users).where(eq(users.email, USER.email));
      const page = await loadUser(demo!.id);
      expect(page.status).toBe(200);
      const user = page.data.user;
      expect(user).toMatchObject({
        email: USER.email,
        full_name: "Dana Developer",
        company_name: "Northwind Tools",
        email_verified: true,
        role: "user",
      });
      expect(user.created_at).toBe(demo!.createdAt.toISOString());
      // Signed in by this test's beforeAll: the session's insert recorded it.
      expect(Date.now() - new Date(user.last_sign_in_at).getTime()).toBeLessThan(10 * 60_000);
      const own = await userLicenses(demo!.id);
      expect(user.licenses.map((l: { short_id: string }) => l.short_id).sort()).toEqual(
        own.map((l) => l.short_id).sort(),
      );
      const paid = await db().select().from(payments).where(eq(payments.user_id, demo!.id));
      expect(user.payments.map((p: { id: string }) => p.id).sort()).toEqual(paid.map((p) => p.id).sort());
      expect(user.subscription_ids).toContain("sub_demo_seed_renewing");
      expect(Array.isArray(user.audit)).toBe(true);

      const missing = await loadUser("00000000-0000-4000-8000-000000000000");
      expect(missing.status).toBe(404);
      expect(missing.data).toMatchObject({ user: null, error: "User not found." });
      expect((await loadUser("not-a-uuid")).status).toBe(404);
      const admin = (await db().select().from(users).where(eq(users.email, ADMIN.email)))[0]!;
      expect((await loadUser(admin.id)).data.user.role).toBe("admin");
    });

    it("a user who never signed in shows no last sign-in", async () => {
      const fresh = await createUser(db(), `never-${engine}@example.com`);
      expect((await loadUser(fresh.id)).data.user.last_sign_in_at).toBeNull();
    });
  });

  describe("revoke", () => {
    it("needs a reason, kept in the audit entry; a second revoke is refused", async () => {
      const target = await createUser(db(), `revoke-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "monthly",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      for (const reason of [undefined, "   "]) {
        const refused = await postUser(target.id, {
          intent: "revoke",
          licenseId: license!.id,
          ...(reason ? { reason } : {}),
        });
        expect(refused.status).toBe(400);
        expect(refused.data.fieldErrors.reason).toEqual(["Enter the reason for revoking this license."]);
      }
      expect((await userLicenses(target.id))[0]!.status).toBe("active");
      const result = await postUser(target.id, { intent: "revoke", licenseId: license!.id, reason: " Chargeback " });
      expect(result.status).toBe(200);
      expect(result.data.toast.title).toBe("License revoked");
      expect((await userLicenses(target.id))[0]!.status).toBe("revoked");
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, license!.id));
      expect(entry).toMatchObject({ actor_email: ADMIN.email, action: "license.revoke", target_type: "license" });
      expect(entry!.details).toMatchObject({
        reason: "Chargeback",
        short_id: license!.short_id,
        user_id: target.id,
        license_state: "Active",
        desktop_code: "VALID",
      });
      const again = await postUser(target.id, { intent: "revoke", licenseId: license!.id, reason: "again" });
      expect(again.status).toBe(409);
      const unknown = { intent: "revoke", licenseId: "00000000-0000-4000-8000-000000000000", reason: "x" };
      expect((await postUser(target.id, unknown)).status).toBe(404);
    });

    it("refuses a license of another user than the page's", async () => {
      const owner = await createUser(db(), `revoke-owner-${engine}@example.com`);
      const other = await createUser(db(), `revoke-other-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: owner.id,
          email: owner.email,
          license_key: "k",
          license_type: "tester",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      expect((await postUser(other.id, { intent: "revoke", licenseId: license!.id, reason: "x" })).status).toBe(404);
      expect((await userLicenses(owner.id))[0]!.status).toBe("active");
    });
  });

  it("revoking a renewing license also stops its subscription's renewal", async () => {
    const [renewing] = await db()
      .select()
      .from(licenses)
      .where(eq(licenses.paddle_subscription_id, "sub_demo_seed_renewing"));
    expect(renewing!.auto_renew).toBe(true);
    // E-mails queued by earlier tests go first: the count below is this revoke's.
    await drainJobs();
    expect(
      (await postUser(renewing!.user_id, { intent: "revoke", licenseId: renewing!.id, reason: "fraud" })).status,
    ).toBe(200);
    // The stop-renewal and the customer's "license revoked" e-mail.
    expect(await drainJobs()).toBe(2);
    const [after] = await db().select().from(licenses).where(eq(licenses.id, renewing!.id));
    expect(after).toMatchObject({ status: "revoked", auto_renew: false, cancellation_requested: true });
    const [sub] = await db().select().from(demo_billing).where(eq(demo_billing.id, "sub_demo_seed_renewing"));
    expect((sub!.data as { scheduled_change: { action: string } | null }).scheduled_change?.action).toBe("cancel");
  });

  describe("reset offline data", () => {
    it("clears the Windows user and computer names, regenerates the key, and is audited", async () => {
      const target = await createUser(db(), `offline-${engine}@example.com`);
      const start = new Date();
      const end = new Date(Date.now() + 30 * DAY);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "bound-key",
          license_type: "monthly",
          start_date: start,
          end_date: end,
          windows_username: "ACME\\ann",
          computer_name: "WRONG-PC",
        })
        .returning();
      const result = await postUser(target.id, { intent: "reset-offline", licenseId: license!.id });
      expect(result.status).toBe(200);
      expect(result.data.toast.title).toBe("Offline data reset");
      const [after] = await userLicenses(target.id);
      expect(after).toMatchObject({ windows_username: null, computer_name: null, status: "active" });
      expect(after!.license_key).not.toBe("bound-key");
      expect(licenseKeys().decode(after!.license_key)).toMatchObject({
        email: target.email,
        end_date: end.toISOString(),
      });
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, license!.id));
      expect(entry).toMatchObject({ action: "license.offline_reset", actor_email: ADMIN.email });
      expect(entry!.details).toMatchObject({
        computer_name: "WRONG-PC",
        windows_username: "ACME\\ann",
        user_id: target.id,
      });
      // Nothing left to reset.
      const again = await postUser(target.id, { intent: "reset-offline", licenseId: license!.id });
      expect(again.status).toBe(409);
      expect(again.data.toast.description).toBe("This license has no offline data to reset.");
    });

    it("refuses a revoked license and another user's license", async () => {
      const target = await createUser(db(), `offline-revoked-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "monthly",
          status: "revoked",
          end_date: new Date(Date.now() + DAY),
          computer_name: "PC",
        })
        .returning();
      expect((await postUser(target.id, { intent: "reset-offline", licenseId: license!.id })).status).toBe(409);
      const other = await createUser(db(), `offline-other-${engine}@example.com`);
      expect((await postUser(other.id, { intent: "reset-offline", licenseId: license!.id })).status).toBe(404);
      expect((await userLicenses(target.id))[0]!.computer_name).toBe("PC");
    });
  });

  describe("resend the license e-mail", () => {
    it("queues the license-delivered e-mail again, each time, and records it", async () => {
      const target = await createUser(db(), `resend-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: `keys-${engine}@example.com`,
          license_key: "k",
          license_type: "yearly",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      const queued = async () =>
        (await db().select().from(job_keys)).filter((k) =>
          k.key.startsWith(`customer-mail:license-delivered:${license!.id}:admin-resend:`),
        ).length;
      for (const times of [1, 2]) {
        const result = await postUser(target.id, { intent: "resend-license", licenseId: license!.id });
        expect(result.status).toBe(200);
        expect(result.data.toast).toMatchObject({
          title: "License e-mail queued",
          description: `The license e-mail to keys-${engine}@example.com is on its way.`,
        });
        expect(await queued()).toBe(times);
      }
      const entries = await db().select().from(audit_log).where(eq(audit_log.target_id, license!.id));
      expect(entries.map((e) => e.action)).toEqual(["license.resend", "license.resend"]);
      expect(entries[0]!.details).toMatchObject({ user_id: target.id, short_id: license!.short_id });
    });

    it("refuses a revoked license and another user's, queueing nothing", async () => {
      const target = await createUser(db(), `resend-revoked-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "yearly",
          status: "revoked",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      const revoked = await postUser(target.id, { intent: "resend-license", licenseId: license!.id });
      expect(revoked.status).toBe(409);
      expect(revoked.data.toast.description).toBe("Only an active license's e-mail can be resent.");
      const other = await createUser(db(), `resend-other-${engine}@example.com`);
      expect((await postUser(other.id, { intent: "resend-license", licenseId: license!.id })).status).toBe(404);
      const keys = (await db().select().from(job_keys)).filter((k) => k.key.includes(license!.id));
      expect(keys).toEqual([]);
    });
  });

  describe("tester licenses", () => {
    it("uses the user's license e-mail, else the account e-mail; a fresh key for now + days", async () => {
      const withLicense = await createUser(db(), `tester-a-${engine}@example.com`);
      await db()
        .insert(licenses)
        .values({
          user_id: withLicense.id,
          email: `billing-${engine}@company.example`,
          license_key: "k",
          license_type: "monthly",
          end_date: new Date(Date.now() + DAY),
        });
      const result = await postUser(withLicense.id, { intent: "add-tester", days: "7" });
      expect(result.status).toBe(200);
      expect(result.data.toast.title).toBe("Tester license added");
      const tester = (await userLicenses(withLicense.id)).find((l) => l.license_type === "tester")!;
      expect(tester).toMatchObject({ email: `billing-${engine}@company.example`, status: "active" });
      expect(Math.round((tester.end_date.getTime() - tester.start_date.getTime()) / DAY)).toBe(7);
      expect(licenseKeys().decode(tester.license_key)).toMatchObject({
        email: `billing-${engine}@company.example`,
        end_date: tester.end_date.toISOString(),
      });
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, tester.id));
      expect(entry).toMatchObject({ action: "license.add_tester", actor_email: ADMIN.email });

      const fresh = await createUser(db(), `tester-b-${engine}@example.com`);
      await postUser(fresh.id, { intent: "add-tester", days: "not a number" });
      const [own] = await userLicenses(fresh.id);
      expect(own!.email).toBe(fresh.email);
      expect(Math.round((own!.end_date.getTime() - own!.start_date.getTime()) / DAY)).toBe(30);
    });

    it.each([
      ["", 30],
      ["12", 12],
      ["365", 365],
    ])("days %j → %i", async (days, expected) => {
      const user = await createUser(db(), `tester-days-${engine}-${days || "blank"}@example.com`);
      expect((await postUser(user.id, { intent: "add-tester", days })).status).toBe(200);
      const [license] = await userLicenses(user.id);
      expect(Math.round((license!.end_date.getTime() - license!.start_date.getTime()) / DAY)).toBe(expected);
    });

    it.each(["0", "-3", "366", "99999", "1.5"])(
      "days %j are refused with a message and nothing is written",
      async (days) => {
        const user = await createUser(db(), `tester-refused-${engine}-${days}@example.com`);
        const before = await auditCount();
        const result = await postUser(user.id, { intent: "add-tester", days });
        expect(result.status).toBe(400);
        expect(result.data.fieldErrors.days).toEqual(["Tester license days must be a whole number from 1 to 365."]);
        expect(await userLicenses(user.id)).toHaveLength(0);
        expect(await auditCount()).toBe(before);
      },
    );

    it("an unknown user is refused and nothing is written", async () => {
      const before = await auditCount();
      expect(
        (await postUser("00000000-0000-4000-8000-000000000000", { intent: "add-tester", days: "30" })).status,
      ).toBe(404);
      expect((await postUser("nope", { intent: "add-tester", days: "30" })).status).toBe(404);
      expect(await auditCount()).toBe(before);
    });
  });

  describe("releases", () => {
    it("adds (notes trimmed, blanks dropped, blank title null), edits and deletes, each recorded", async () => {
      const added = await post({
        intent: "save-release",
        version: ` 3.0.0-${engine} `,
        title: "  ",
        release_date: "2026-12-24",
        release_notes: ["  One ", "", "Two"],
      });
      expect(added.status).toBe(200);
      expect(added.data.toast.title).toBe("Release added");
      const [row] = await db()
        .select()
        .from(releases)
        .where(eq(releases.version, `3.0.0-${engine}`));
      expect(row).toMatchObject({ title: null, release_date: "2026-12-24", release_notes: ["One", "Two"] });
      const listed = (await load("?tab=releases")).data.releases.value as { version: string }[];
      expect(listed[0]!.version).toBe(`3.0.0-${engine}`);

      const edited = await post({
        intent: "save-release",
        id: row!.id,
        version: `3.0.1-${engine}`,
        title: "Holiday",
        release_date: "2026-12-25",
        release_notes: ["Three"],
      });
      expect(edited.data.toast.title).toBe("Release updated");
      expect((await db().select().from(releases).where(eq(releases.id, row!.id)))[0]).toMatchObject({
        version: `3.0.1-${engine}`,
        title: "Holiday",
        release_notes: ["Three"],
      });

      const deleted = await post({ intent: "delete-release", id: row!.id });
      expect(deleted.data.toast.title).toBe("Release deleted");
      expect(await db().select().from(releases).where(eq(releases.id, row!.id))).toHaveLength(0);
      const actions = (await db().select().from(audit_log).where(eq(audit_log.target_id, row!.id)))
        .map((e) => e.action)
        .sort();
      expect(actions).toEqual(["release.create", "release.delete", "release.update"]);
      expect((await post({ intent: "delete-release", id: row!.id })).status).toBe(404);
    });

    it("stores the optional installer size and SHA-256, refuses bad ones with 400, and the seed fills the demo's", async () => {
      const seededLatest = (await db().select().from(releases).where(eq(releases.version, "2.4.0")))[0]!;
      expect(seededLatest.installer_size_bytes).toBeGreaterThan(0);
      expect(seededLatest.installer_sha256).toMatch(/^[0-9a-f]{64}$/);
      const fields = {
        intent: "save-release",
        version: `4.0.0-${engine}`,
        title: "",
        release_date: "2026-12-02",
        release_notes: ["x"],
      };
      const count = (await db().select().from(releases)).length;
      const bad = await post({ ...fields, installer_size_bytes: "big", installer_sha256: "abc" });
      expect(bad.status).toBe(400);
      expect(bad.data.fieldErrors).toEqual({
        installer_size_bytes: ["Enter the installer's size as a whole number of bytes."],
        installer_sha256: ["A SHA-256 is 64 hexadecimal characters (0-9, a-f)."],
      });
      expect(await db().select().from(releases)).toHaveLength(count);
      const saved = await post({ ...fields, installer_size_bytes: "52428800", installer_sha256: "AB".repeat(32) });
      expect(saved.status).toBe(200);
      const [row] = await db()
        .select()
        .from(releases)
        .where(eq(releases.version, `4.0.0-${engine}`));
      expect(row).toMatchObject({ installer_size_bytes: 52_428_800, installer_sha256: "ab".repeat(32) });
      // The database refuses what the form would: a hash that is not lowercase hex.
      await expect(
        db().update(releases).set({ installer_sha256: "XYZ" }).where(eq(releases.id, row!.id)),
      ).rejects.toThrow();
      await post({ intent: "delete-release", id: row!.id });
    });

    it("refuses a missing version or no notes with their texts, and saves nothing", async () => {
      const count = (await db().select().from(releases)).length;
      const noVersion = await post({
        intent: "save-release",
        version: " ",
        title: "",
        release_date: "2026-12-01",
        release_notes: ["x"],
      });
      expect(noVersion.status).toBe(400);
      expect(noVersion.data.fieldErrors.version).toEqual(["Version is required"]);
      const noNotes = await post({
        intent: "save-release",
        version: "1",
        title: "",
        release_date: "2026-12-01",
        release_notes: [" ", ""],
      });
      expect(noNotes.status).toBe(400);
      expect(noNotes.data.toast.description).toBe("At least one release note is required");
      const badDate = await post({
        intent: "save-release",
        version: "1",
        title: "",
        release_date: "soon",
        release_notes: ["x"],
      });
      expect(badDate.status).toBe(400);
      expect(await db().select().from(releases)).toHaveLength(count);
    });
  });

  it("the audit tab lists recent entries, newest first", async () => {
    const entries = (await load("?tab=audit")).data.audit.value.entries as { created_at: string }[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((e) => e.created_at)).toEqual([...entries.map((e) => e.created_at)].sort().reverse());
  });

  it("when the database fails, each screen and action shows its text", async () => {
    const target = await createUser(db(), `failing-${engine}@example.com`);
    const [license] = await db()
      .insert(licenses)
      .values({
        user_id: target.id,
        email: target.email,
        license_key: "k",
        license_type: "tester",
        end_date: new Date(Date.now() + DAY),
      })
      .returning();
    const [release] = await db().select().from(releases).limit(1);
    await db().execute(sql`alter table licenses rename to licenses_away`);
    await db().execute(sql`alter table releases rename to releases_away`);
    try {
      expect((await load("?tab=users&q=failing")).data.users.error).toBe("Failed to search users");
      expect((await load("?tab=releases")).data.releases.error).toBe("Failed to load releases");
      expect((await load("?tab=overview")).data.overview.error).toBe("Failed to load the overview");
      const page = await loadUser(target.id);
      expect(page.status).toBe(500);
      expect(page.data.error).toBe("Failed to load the user");
      const texts = async (result: { status: number; data: { toast: { description: string } } }) => {
        expect(result.status).toBe(500);
        return result.data.toast.description;
      };
      expect(await texts(await postUser(target.id, { intent: "revoke", licenseId: license!.id, reason: "x" }))).toBe(
        "Failed to revoke license",
      );
      expect(await texts(await postUser(target.id, { intent: "add-tester", days: "30" }))).toBe(
        "Failed to add tester license",
      );
      expect(
        await texts(
          await post({
            intent: "save-release",
            version: "1",
            title: "",
            release_date: "2026-12-01",
            release_notes: ["x"],
          }),
        ),
      ).toBe("Failed to save release");
      expect(await texts(await post({ intent: "delete-release", id: release!.id }))).toBe("Failed to delete release");
    } finally {
      await db().execute(sql`alter table licenses_away rename to licenses`);
      await db().execute(sql`alter table releases_away rename to releases`);
    }
    expect((await userLicenses(target.id))[0]!.status).toBe("active");
  });

  it("a user whose account and licenses have no e-mail: Could not determine user email", async () => {
    const [nameless] = await db().insert(users).values({ email: "", name: "No Mail", emailVerified: true }).returning();
    const result = await postUser(nameless!.id, { intent: "add-tester", days: "30" });
    expect(result.status).toBe(422);
    expect(result.data.toast.description).toBe("Could not determine user email");
    expect(await userLicenses(nameless!.id)).toHaveLength(0);
  });
});
