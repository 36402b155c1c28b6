import { describe, expect, it } from "vitest";
import { ADMIN_NAV, adminTabLocation } from "~/domain/admin-nav";

describe("old admin tab addresses", () => {
  it.each([
    ["tab=users", "/admin/users"],
    ["tab=users&q=dana%40example.com&page=2", "/admin/users?q=dana%40example.com&page=2"],
    ["q=dana&tab=users", "/admin/users?q=dana"],
    ["tab=releases", "/admin/releases"],
    ["tab=audit&action=license.revoke&target=abc&page=3", "/admin/audit?action=license.revoke&target=abc&page=3"],
    ["tab=overview", "/admin"],
    ["tab=", "/admin"],
    ["tab=%3Cscript%3E&x=1", "/admin?x=1"],
  ])("?%s moves to %s", (query, location) => {
    expect(adminTabLocation(new URLSearchParams(query))).toBe(location);
  });

  it("leaves an address without a tab where it is", () => {
    expect(adminTabLocation(new URLSearchParams(""))).toBeNull();
    expect(adminTabLocation(new URLSearchParams("q=dana"))).toBeNull();
  });

  it("names every old tab's page in the navigation", () => {
    const pages: string[] = ADMIN_NAV.map((item) => item.to);
    for (const query of ["tab=overview", "tab=users", "tab=releases", "tab=audit"]) {
      expect(pages).toContain(adminTabLocation(new URLSearchParams(query)));
    }
  });
});
