import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchMatch } from "~/domain/admin-search";
import * as usersRoute from "~/routes/admin/users";
import { licenses } from "~/server/db/schema";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { throughAdminGuard } from "../../support/admin-route";
import { days } from "../../support/paddle-fixtures";
import { call, getRequest, signInCookie } from "../../support/route-call";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

const [ADMIN] = DEMO_ACCOUNTS;

interface Found {
  id: string;
  full_name: string;
  match: SearchMatch;
}

// The lookups that answer from an exact index rather than trigrams (decisions 0048 and 0052): what
// they find, and what they leave out when they fill the page.
describe.each(testEngines())("admin search's exact lookups on %s", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(app.database.db);
    adminCookie = await signInCookie(ADMIN.email, ADMIN.password);
  });
  afterAll(async () => app?.close());

  const db = () => app.database.db;
  const search = async (q: string) => {
    const answer = await call(() =>
      throughAdminGuard(usersRoute.loader, getRequest(`/admin/users?q=${encodeURIComponent(q)}`, adminCookie)),
    );
    expect(answer.status).toBe(200);
    return answer.data.users.value as { users: Found[]; hasNext: boolean };
  };
  const names = async (q: string) => (await search(q)).users.map((user) => user.full_name);

  it("a name shared by a page of users: that page in name order, from the surname or the whole name", async () => {
    for (let i = 0; i < 51; i++)
      await createUser(db(), `wilma${i}-${engine}@example.com`, { fullName: "Wilma Quellmalz" });
    // Each contains a term below and sorts before the Wilmas.
    await createUser(db(), `aaron-${engine}@example.com`, { fullName: "Aaron Wilma Quellmalz" });
    await createUser(db(), `anna-${engine}@example.com`, { fullName: "Anna Quellmalz-Berg" });

    // One word equal to a surname (decision 0048): its holders; Anna's surname is another.
    const bySurname = await search("quellmalz");
    expect(bySurname.users.map((user) => user.full_name)).toEqual([
      "Aaron Wilma Quellmalz",
      ...Array<string>(49).fill("Wilma Quellmalz"),
    ]);
    expect(bySurname.hasNext).toBe(true);
    // Several words equal to a whole name, case aside (decision 0052): Aaron's name only contains it.
    const byWholeName = await search("wilma QUELLMALZ");
    expect(byWholeName.users.map((user) => user.full_name)).toEqual(Array<string>(50).fill("Wilma Quellmalz"));
    expect(byWholeName.users.every((user) => user.match.kind === "name")).toBe(true);
    expect(byWholeName.hasNext).toBe(true);
    // Fewer than a page equal to it: every name that contains it, as before.
    expect(await names("Anna Quellmalz")).toEqual(["Anna Quellmalz-Berg"]);
    expect(await names("Aaron Wilma Quellmalz")).toEqual(["Aaron Wilma Quellmalz"]);
  });

  it("an address by its part before the @: from anywhere in the local part, case aside, wildcards taken literally", async () => {
    const ada = await createUser(db(), `ada.end-${engine}@Lovelace.example`, { fullName: "Ada End" });
    const other = await createUser(db(), `adaxend-${engine}@lovelace.example`, { fullName: "Ada Other" });
    await db()
      .insert(licenses)
      .values({
        user_id: ada.id,
        email: `Billing.End-${engine}@analytical.example`,
        license_key: "k",
        license_type: "monthly",
        end_date: days(30),
      });
    const found = async (q: string) => (await search(q)).users.map((user) => ({ id: user.id, match: user.match }));
    const byEmail = [{ id: ada.id, match: { kind: "email", value: ada.email } }];
    expect(await found(`ada.end-${engine}@lovelace.example`)).toEqual(byEmail);
    expect(await found(`a.END-${engine}@LOVEL`)).toEqual(byEmail); // the end of the local part, any case
    expect(await found(`end-${engine}@`)).toEqual([
      { id: ada.id, match: { kind: "email", value: ada.email } },
      { id: other.id, match: { kind: "email", value: other.email } },
    ]);
    // `_` and `%` are characters, not wildcards: `ada_end` is not `adaxend`.
    expect(await found(`ada_end-${engine}@`)).toEqual([]);
    expect(await found(`ada%end-${engine}@`)).toEqual([]);
    expect(await found(`billing.end-${engine}@analytical`)).toEqual([
      { id: ada.id, match: { kind: "license_email", value: `Billing.End-${engine}@analytical.example` } },
    ]);
    // Under three characters before the @, or none: through the trigram index, as before.
    expect((await found(`@lovelace.example`)).map((user) => user.id)).toEqual([ada.id, other.id]);
    expect(await found(`${engine.slice(-2)}@analytical.example`)).toEqual([
      { id: ada.id, match: { kind: "license_email", value: `Billing.End-${engine}@analytical.example` } },
    ]);
  });

  it("a whole short id typed with its FK finds that license only; without it, also what contains it", async () => {
    const owner = await createUser(db(), `owner-${engine}@example.com`, { fullName: "Whole Id Owner" });
    const lookalike = await createUser(db(), `fk-7q2m-9x0d.${engine}@example.com`, { fullName: "Look Alike" });
    const [license] = await db()
      .insert(licenses)
      .values({
        user_id: owner.id,
        short_id: "FK-7Q2M-9X0D",
        email: owner.email,
        license_key: "k",
        license_type: "monthly",
        end_date: days(30),
      })
      .returning();
    const byLicense = { id: owner.id, match: { kind: "short_id", value: license!.short_id } };
    const found = async (q: string) => (await search(q)).users.map((user) => ({ id: user.id, match: user.match }));
    expect(await found("FK-7Q2M-9X0D")).toEqual([byLicense]);
    expect(await found("fk 7q2m 9xod")).toEqual([byLicense]); // O read as 0
    // Without its FK it may be part of something else: here of an address (Look Alike sorts first).
    expect(await found("7Q2M-9X0D")).toEqual([
      { id: lookalike.id, match: { kind: "email", value: lookalike.email } },
      byLicense,
    ]);
  });

  it("nobody found: the accounts closest to the term, such as an address saved with a typo ('Did you mean')", async () => {
    const carol = await createUser(db(), `carol.smiht-${engine}@example.com`, { fullName: "Carol Smith" });
    const answer = await call(() =>
      throughAdminGuard(
        usersRoute.loader,
        getRequest(`/admin/users?q=${encodeURIComponent(`carol.smith-${engine}@example.com`)}`, adminCookie),
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.data.users.value.users).toEqual([]);
    expect(answer.data.users.near).toContainEqual({ id: carol.id, email: carol.email, full_name: "Carol Smith" });
    // A term that finds someone offers no guesses.
    const exact = await call(() =>
      throughAdminGuard(
        usersRoute.loader,
        getRequest(`/admin/users?q=${encodeURIComponent(carol.email)}`, adminCookie),
      ),
    );
    expect(exact.data.users.value.users.map((user: Found) => user.id)).toEqual([carol.id]);
    expect(exact.data.users.near).toEqual([]);
  });
});
