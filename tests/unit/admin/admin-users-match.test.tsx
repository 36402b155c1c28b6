import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AdminUsers, type AdminUserList } from "~/components/admin/admin-users";

function render(list: AdminUserList): string {
  const router = createMemoryRouter([{ path: "/admin", element: <AdminUsers list={list} /> }], {
    initialEntries: ["/admin"],
  });
  return renderToString(<RouterProvider router={router} />).replace(/<!-- -->/g, "");
}

const user = {
  id: "2650b2a7-ac07-4469-8c60-5489fe996e62",
  email: "dana.new@example.com",
  full_name: "Dana Developer",
  company_name: null,
  created_at: "2026-01-01T00:00:00.000Z",
};

describe("the admin's search results", () => {
  it("say why each user matched", () => {
    const html = render({
      term: "demo@forgekit.example",
      page: 1,
      error: null,
      value: {
        users: [{ ...user, match: { kind: "previous_email", value: "demo@forgekit.example" } }],
        page: 1,
        hasNext: false,
      },
    });
    expect(html).toContain("Matched by previous e-mail demo@forgekit.example");
  });

  it("the plain list of users has no reason", () => {
    const html = render({ term: "", page: 1, error: null, value: { users: [user], page: 1, hasNext: false } });
    expect(html).toContain("Dana Developer");
    expect(html).not.toContain("Matched by");
  });
});
