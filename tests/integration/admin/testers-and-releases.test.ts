import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, licenses, releases, users } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { adminApp } from "../../support/admin-app";
import { createUser, testEngines } from "../../support/test-app";

const [ADMIN] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("administration on %s", (engine) => {
  const { startApp, stopApp, db, load, post, postUser, loadUser, auditCount, userLicenses } = adminApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

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
      const listed = (await load("/releases")).data.releases.value as { version: string }[];
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
    const entries = (await load("/audit")).data.audit.value.entries as { created_at: string }[];
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
      expect((await load("/users?q=failing")).data.users.error).toBe("Failed to search users");
      expect((await load("/releases")).data.releases.error).toBe("Failed to load releases");
      expect((await load("")).data.overview.error).toBe("Failed to load the overview");
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
