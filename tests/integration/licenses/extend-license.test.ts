import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenses, users } from "~/server/db/schema";
import { extendLicense as extendThroughProvider } from "~/server/licenses/extend-license.server";
import { ActionError } from "~/server/action-error.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { seedDemoData } from "~/server/seed.server";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

describe.each(testEngines())("extending a license on %s", (engine) => {
  let app: TestApp;
  let userId: string;
  let adminId: string;
  let rows: (typeof licenses.$inferSelect)[];
  beforeAll(async () => {
    app = await startTestApp(engine);
    await seedDemoData(app.database.db);
    const all = await app.database.db.select().from(users);
    userId = all.find((u) => u.email === "demo@forgekit.example")!.id;
    adminId = all.find((u) => u.email === "admin@forgekit.example")!.id;
    rows = await app.database.db.select().from(licenses).where(eq(licenses.user_id, userId));
  });
  afterAll(async () => app?.close());

  const find = (test: (l: (typeof rows)[number]) => boolean) => rows.find(test)!;
  const extendLicense = async (input: { userId: string; licenseId: string; months: number; years: number }) => {
    const outcome = await extendThroughProvider({ ...input, email: "demo@forgekit.example" }, { demoDelayMs: 0 });
    if (outcome.kind !== "extended") throw new Error("the demo provider pays at once");
    return outcome;
  };

  it("an expired license extended by a month runs a month from now, not from its old end", async () => {
    const license = find(
      (l) => l.license_type === "6_months" && l.status === "active" && l.end_date.getTime() < Date.now(),
    );
    const { end_date } = await extendLicense({ userId, licenseId: license.id, months: 1, years: 0 });
    expect(end_date.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
  });

  it("adds months + 12 per year to the end date and stores a key for the new dates", async () => {
    const license = find((l) => l.license_type === "yearly" && l.status === "active");
    const { end_date } = await extendLicense({ userId, licenseId: license.id, months: 2, years: 1 });
    const expected = new Date(license.end_date);
    expected.setUTCMonth(expected.getUTCMonth() + 14);
    expect(end_date.toISOString().slice(0, 10)).toBe(expected.toISOString().slice(0, 10));
    const [after] = await app.database.db.select().from(licenses).where(eq(licenses.id, license.id));
    expect(after!.end_date.getTime()).toBe(end_date.getTime());
    expect(after!.license_key).not.toBe(license.license_key);
    expect(licenseKeys().decode(after!.license_key)).toMatchObject({
      email: license.email,
      start_date: license.start_date.toISOString(),
      end_date: end_date.toISOString(),
    });
  });

  it("answers 404 for another user's license and changes nothing", async () => {
    const license = find((l) => l.license_type === "monthly" && l.status === "active" && l.auto_renew);
    await expect(extendLicense({ userId: adminId, licenseId: license.id, months: 1, years: 0 })).rejects.toMatchObject({
      status: 404,
    });
    await expect(extendLicense({ userId, licenseId: "not-a-uuid", months: 1, years: 0 })).rejects.toMatchObject({
      status: 404,
    });
    const [after] = await app.database.db.select().from(licenses).where(eq(licenses.id, license.id));
    expect(after!.end_date.getTime()).toBe(license.end_date.getTime());
  });

  it("refuses a free tester license: it is given, not bought, so no paid extension is offered", async () => {
    const license = find((l) => l.license_type === "tester");
    await expect(extendLicense({ userId, licenseId: license.id, months: 1, years: 0 })).rejects.toMatchObject({
      status: 409,
    });
  });

  it.each(["revoked", "refund_requested", "refunded"])("refuses a %s license", async (status) => {
    const license = find((l) => l.status === status);
    const attempt = extendLicense({ userId, licenseId: license.id, months: 1, years: 0 });
    await expect(attempt).rejects.toBeInstanceOf(ActionError);
    await expect(extendLicense({ userId, licenseId: license.id, months: 1, years: 0 })).rejects.toMatchObject({
      status: 409,
    });
  });

  it.each([
    [0, 0],
    [13, 0],
    [0, 6],
    [-1, 2],
  ])("refuses %i months and %i years with a 400", async (months, years) => {
    const license = find((l) => l.license_type === "yearly" && l.status === "active");
    await expect(extendLicense({ userId, licenseId: license.id, months, years })).rejects.toMatchObject({
      status: 400,
    });
  });
});
