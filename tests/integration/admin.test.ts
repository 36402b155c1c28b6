import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/admin";
import { audit_log, demo_billing, licenses, releases, users } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, formRequest, getRequest, routeArgs, signInCookie } from "../support/route-call";
import { createUser, startTestApp, testEngines, type TestApp } from "../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("administration on %s", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let userCookie: string;
  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(app.database.db);
    adminCookie = await signInCookie(ADMIN.email, ADMIN.password);
    userCookie = await signInCookie(USER.email, USER.password);
  });
  afterAll(async () => app?.close());

  const db = () => app.database.db;
  const load = (query: string, cookie = adminCookie) =>
    call(() => adminRoute.loader(routeArgs(getRequest(`/admin${query}`, cookie))));
  const post = (fields: Record<string, string | string[]>, cookie = adminCookie) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const value of [v].flat()) body.append(k, value);
    const request = formRequest("/admin", {}, cookie);
    return call(() =>
      adminRoute.action(routeArgs(new Request(request.url, { method: "POST", headers: request.headers, body }))),
    );
  };
  const auditCount = async () =>
    (
      (await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(audit_log)) as { n: number }[]
    )[0]!.n;
  const userLicenses = async (userId: string) => db().select().from(licenses).where(eq(licenses.user_id, userId));

  describe("guards", () => {
    it("the page sends signed-out visitors and ordinary users to /", async () => {
      for (const cookie of ["", userCookie]) {
        const result = await load("", cookie);
        expect(result.status).toBe(302);
        expect(result.headers.get("Location")).toBe("/");
      }
      expect((await load("")).status).toBe(200);
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
      const attempts: Record<string, string | string[]>[] = [
        { intent: "revoke", licenseId: active!.id },
        { intent: "add-tester", userId: target.id, days: "30" },
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
        ((await load(`?q=${encodeURIComponent(q)}`)).data.search.results as { id: string }[]).map((r) => r.id);
      expect(await ids("LOVELACE")).toEqual([ada.id]);
      expect(await ids("analytical")).toEqual([ada.id]);
      expect(await ids(`ada-${engine}@`)).toEqual([ada.id]);
      expect(await ids("ada")).toEqual([ada.id]);
      expect(await ids("nobody-matches-this")).toEqual([]);
      // LIKE wildcards in the term are literal characters.
      expect(await ids("%")).toEqual([]);
    });

    it("a blank term is refused with a message", async () => {
      const result = await load("?q=%20%20");
      expect(result.data.search).toEqual({
        term: "",
        results: null,
        error: "Enter a name or e-mail address to search.",
      });
    });

    it("opening a user lists their licenses newest first", async () => {
      const [demo] = await db().select().from(users).where(eq(users.email, USER.email));
      const result = await load(`?q=dana&user=${demo!.id}`);
      const selected = result.data.selected.value;
      expect(selected.user).toMatchObject({
        email: USER.email,
        full_name: "Dana Developer",
        company_name: "Northwind Tools",
      });
      const created = selected.licenses.map((l: { created_at: string }) => l.created_at);
      expect(created).toEqual([...created].sort().reverse());
      expect((await load("?user=not-a-uuid")).data.selected).toEqual({ value: null, error: null });
    });
  });

  describe("revoke", () => {
    it("revokes an active license and records it; a second revoke is refused", async () => {
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
      const result = await post({ intent: "revoke", licenseId: license!.id });
      expect(result.status).toBe(200);
      expect(result.data.toast.title).toBe("License revoked");
      expect((await userLicenses(target.id))[0]!.status).toBe("revoked");
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, license!.id));
      expect(entry).toMatchObject({ actor_email: ADMIN.email, action: "license.revoke", target_type: "license" });
      const again = await post({ intent: "revoke", licenseId: license!.id });
      expect(again.status).toBe(409);
      expect((await post({ intent: "revoke", licenseId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
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
    expect((await post({ intent: "revoke", licenseId: renewing!.id })).status).toBe(200);
    // The stop-renewal and the customer's "license revoked" e-mail.
    expect(await drainJobs()).toBe(2);
    const [after] = await db().select().from(licenses).where(eq(licenses.id, renewing!.id));
    expect(after).toMatchObject({ status: "revoked", auto_renew: false, cancellation_requested: true });
    const [sub] = await db().select().from(demo_billing).where(eq(demo_billing.id, "sub_demo_seed_renewing"));
    expect((sub!.data as { scheduled_change: { action: string } | null }).scheduled_change?.action).toBe("cancel");
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
      const result = await post({ intent: "add-tester", userId: withLicense.id, days: "7" });
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
      await post({ intent: "add-tester", userId: fresh.id, days: "not a number" });
      const [own] = await userLicenses(fresh.id);
      expect(own!.email).toBe(fresh.email);
      expect(Math.round((own!.end_date.getTime() - own!.start_date.getTime()) / DAY)).toBe(30);
    });

    it.each([
      ["0", 1],
      ["-3", 1],
      ["", 30],
      ["12", 12],
    ])("days %j → %i", async (days, expected) => {
      const user = await createUser(db(), `tester-days-${engine}-${days || "blank"}@example.com`);
      await post({ intent: "add-tester", userId: user.id, days });
      const [license] = await userLicenses(user.id);
      expect(Math.round((license!.end_date.getTime() - license!.start_date.getTime()) / DAY)).toBe(expected);
    });

    it("an unknown user is refused and nothing is written", async () => {
      const before = await auditCount();
      expect(
        (await post({ intent: "add-tester", userId: "00000000-0000-4000-8000-000000000000", days: "30" })).status,
      ).toBe(404);
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
      const listed = (await load("")).data.releases.value as { version: string }[];
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

    it("refuses a missing version or no notes with the spec's texts, and saves nothing", async () => {
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
    const entries = (await load("?tab=audit")).data.audit.value as { created_at: string }[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((e) => e.created_at)).toEqual([...entries.map((e) => e.created_at)].sort().reverse());
  });

  it("when the database fails, each screen and action shows the spec's text", async () => {
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
      const page = await load(`?q=failing&user=${target.id}`);
      expect(page.status).toBe(200);
      expect(page.data.search.error).toBe("Failed to search users");
      expect(page.data.selected.error).toBe("Failed to fetch user licenses");
      expect(page.data.releases.error).toBe("Failed to load releases");
      const texts = async (fields: Record<string, string | string[]>) => {
        const result = await post(fields);
        expect(result.status).toBe(500);
        return result.data.toast.description;
      };
      expect(await texts({ intent: "revoke", licenseId: license!.id })).toBe("Failed to revoke license");
      expect(await texts({ intent: "add-tester", userId: target.id, days: "30" })).toBe("Failed to add tester license");
      expect(
        await texts({
          intent: "save-release",
          version: "1",
          title: "",
          release_date: "2026-12-01",
          release_notes: ["x"],
        }),
      ).toBe("Failed to save release");
      expect(await texts({ intent: "delete-release", id: release!.id })).toBe("Failed to delete release");
    } finally {
      await db().execute(sql`alter table licenses_away rename to licenses`);
      await db().execute(sql`alter table releases_away rename to releases`);
    }
    expect((await userLicenses(target.id))[0]!.status).toBe("active");
  });

  it("a user whose account and licenses have no e-mail: Could not determine user email", async () => {
    const [nameless] = await db().insert(users).values({ email: "", name: "No Mail", emailVerified: true }).returning();
    const result = await post({ intent: "add-tester", userId: nameless!.id, days: "30" });
    expect(result.status).toBe(422);
    expect(result.data.toast.description).toBe("Could not determine user email");
    expect(await userLicenses(nameless!.id)).toHaveLength(0);
  });
});
