import { parseAdminTab } from "./admin";

/** The admin area's pages, in the order its navigation lists them (routes/admin/layout.tsx). */
export const ADMIN_NAV = [
  { to: "/admin", label: "Overview" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/releases", label: "Releases" },
  { to: "/admin/audit", label: "Audit log" },
  { to: "/admin/tokens", label: "API tokens" },
  { to: "/admin/webhooks", label: "Webhooks" },
  { to: "/admin/jobs", label: "Jobs" },
] as const;

/**
 * Where an address of the old tabbed admin page (`/admin?tab=users&q=…&page=2`) now lives: the tab's
 * own page with every other parameter kept (`/admin/users?q=…&page=2`), so bookmarks and links in
 * e-mails keep working. An unknown tab was shown as the overview, and still is. Null when the
 * query names no tab.
 */
export function adminTabLocation(search: URLSearchParams): string | null {
  if (!search.has("tab")) return null;
  const tab = parseAdminTab(search.get("tab"));
  const rest = new URLSearchParams(search);
  rest.delete("tab");
  const path = tab === "overview" ? "/admin" : `/admin/${tab}`;
  const query = rest.toString();
  return query ? `${path}?${query}` : path;
}
