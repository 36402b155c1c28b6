import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenses, payments, releases, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { adminApp } from "../../support/admin-app";
import { createUser, testEngines } from "../../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("administration on %s", (engine) => {
  const { startApp, stopApp, state, db, load, post, postUser, loadUser, csv, auditCount, userLicenses } =
    adminApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  describe("guards", () => {
    it("every admin page (overview, users, releases, audit log, a user's page) sends signed-out visitors and ordinary users to /", async () => {
      const [demo] = await db().select().from(users).where(eq(users.email, USER.email));
      for (const cookie of ["", state.userCookie]) {
        for (const path of ["", "/users", "/releases", "/audit"]) {
          const result = await load(path, cookie);
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

    it("an address of the old tabbed page moves (302) to that tab's own page with its other parameters", async () => {
      for (const [old, now] of [
        ["?tab=users&q=dana%40example.com&page=2", "/admin/users?q=dana%40example.com&page=2"],
        ["?tab=audit&action=license.revoke", "/admin/audit?action=license.revoke"],
        ["?tab=releases", "/admin/releases"],
        ["?tab=overview", "/admin"],
      ]) {
        const result = await load(old!);
        expect(result.status, old).toBe(302);
        expect(result.headers.get("Location"), old).toBe(now);
      }
      // Still admins only: a user asking for an old address is sent home, not told where it moved.
      expect((await load("?tab=users", state.userCookie)).headers.get("Location")).toBe("/");
    });

    it("the CSV export answers 401 signed out and 403 to users, with no data", async () => {
      const out = await csv("", "");
      expect(out.status).toBe(401);
      expect(await out.text()).not.toContain("license");
      const user = await csv("", state.userCookie);
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
        expect((await postUser(target.id, fields, state.userCookie)).status).toBe(403);
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
        expect((await post(fields, state.userCookie)).status).toBe(403);
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
        ((await load(`/users?q=${encodeURIComponent(q)}`)).data.users.value.users as { id: string }[]).map((r) => r.id);
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
        ((await load(`/users?q=${encodeURIComponent(q)}`)).data.users.value.users as { id: string }[]).map((r) => r.id);
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
      const first = (await load("/users?q=%20%20")).data.users;
      expect(first.term).toBe("");
      expect(first.value.users).toHaveLength(50);
      expect(first.value.hasNext).toBe(true);
      expect(first.value.users.slice(0, 3).map((u: { id: string }) => u.id)).toEqual(made.slice(-3).reverse());
      const second = (await load("/users?page=2")).data.users.value;
      expect(second.page).toBe(2);
      expect(second.users.map((u: { id: string }) => u.id).slice(0, 5)).toEqual(made.slice(0, 5).reverse());
      const firstIds = new Set(first.value.users.map((u: { id: string }) => u.id));
      expect(second.users.some((u: { id: string }) => firstIds.has(u.id))).toBe(false);
      // A search's later pages too: 55 users are "Listed …".
      const found = (await load("/users?q=Listed&page=2")).data.users.value;
      expect(found.users.length).toBeGreaterThanOrEqual(5);
      expect((await load("/users?q=Listed")).data.users.value.hasNext).toBe(true);
      expect((await load("/users?page=abc")).data.users.page).toBe(1);
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
});
