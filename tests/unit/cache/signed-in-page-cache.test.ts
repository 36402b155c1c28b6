import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COOKIES, get, session, site, stored, closeSite, openSite, resetSite } from "../../support/signed-in-site";

beforeAll(openSite);
afterAll(closeSite);
beforeEach(resetSite);

describe("the signed-in page cache", () => {
  it("renders a session's page once, then answers it from memory, compressed, never stored by the browser", async () => {
    session("a", "user-1");
    const first = await stored("/licenses", "a");
    expect(first.cache).toBe("MISS");
    const again = await get("/licenses", "a");
    expect(again.cache).toBe("HIT");
    expect(again.body).toBe(first.body);
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    expect(again.headers.get("content-encoding")).toMatch(/^(br|gzip)$/);
    const data = await stored("/licenses.data", "a");
    expect((await get("/licenses.data", "a")).body).toBe(data.body);
  });

  it("answers each session only with its own pages", async () => {
    session("a", "user-1");
    session("b", "user-2");
    session("c", "user-1");
    await stored("/licenses", "a");
    const other = await get("/licenses", "b");
    expect(other.cache).toBe("MISS");
    expect(other.body).toContain("fk.session_token=b");
    // Another session of the same user: rendered for it.
    expect((await get("/licenses", "c")).cache).toBe("MISS");
    // No session, or one not remembered (signed out, expired): never from memory.
    expect((await get("/licenses")).cache).not.toBe("HIT");
    expect((await get("/licenses", "unknown")).cache).not.toBe("HIT");
  });

  it("forgets a page when the session it was rendered for changed or ended", async () => {
    session("a", "user-1");
    await stored("/licenses", "a");
    // The session cache remembered the session again (a renamed user): a new object.
    session("a", "user-1");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
    await stored("/licenses", "a");
    site.sessions.delete("a");
    expect((await get("/licenses", "a")).cache).not.toBe("HIT");
  });

  it("forgets a user's pages when their licenses change, and keeps the others'", async () => {
    session("a", "user-1");
    session("b", "user-2");
    await stored("/licenses", "a");
    await stored("/licenses", "b");
    site.cache.forgetUser("user-1");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
  });

  it("a page showing other users' data is forgotten by any user's change, and by a release change", async () => {
    session("staff", "admin-1");
    session("a", "user-1");
    await stored("/admin?tab=users&q=dana", "staff");
    await stored("/licenses", "a");
    expect((await get("/admin?tab=users&q=dana", "staff")).cache).toBe("HIT");
    // A customer's change: their own pages and every shared page go; another user's own pages stay.
    session("b", "user-2");
    await stored("/licenses", "b");
    site.cache.forgetUser("user-1");
    expect((await get("/admin?tab=users&q=dana", "staff")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
    await stored("/admin?tab=users&q=dana", "staff");
    site.cache.forgetShared();
    expect((await get("/admin?tab=users&q=dana", "staff")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
  });

  it("a form post of the user forgets their pages before it is handled", async () => {
    session("a", "user-1");
    await stored("/licenses", "a");
    const posted = await fetch(`${site.base}/licenses`, {
      method: "POST",
      headers: { Cookie: `${COOKIES.sessionToken}=a` },
    });
    expect(await posted.text()).toBe("changed");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
  });

  it("an admin's action on a user's page forgets that user's pages too", async () => {
    const customerId = "0b5cdd0e-7c4f-4a53-8f6f-4f0e2d5a9c11";
    session("staff", "admin-1");
    session("a", customerId);
    session("b", "user-2");
    await stored("/licenses", "a");
    await stored("/licenses", "b");
    const posted = await fetch(`${site.base}/admin/users/${customerId}`, {
      method: "POST",
      headers: { Cookie: `${COOKIES.sessionToken}=staff` },
    });
    expect(await posted.text()).toBe("changed");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
  });
});
