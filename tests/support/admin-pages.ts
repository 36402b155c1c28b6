import * as auditRoute from "~/routes/admin/audit";
import * as overviewRoute from "~/routes/admin/index";
import * as releasesRoute from "~/routes/admin/releases";
import * as usersRoute from "~/routes/admin/users";

/** The admin area's list pages (overview, users, releases, audit log) by path, each with its own loader. */
export const ADMIN_PAGES = {
  "/admin": overviewRoute.loader,
  "/admin/users": usersRoute.loader,
  "/admin/releases": releasesRoute.loader,
  "/admin/audit": auditRoute.loader,
} as const;

/** The loader of the admin page an address (`/admin/users?q=…`) opens. */
export function adminPageLoader(url: string) {
  const path = new URL(url, "http://localhost").pathname;
  const loader = (ADMIN_PAGES as Record<string, (typeof ADMIN_PAGES)[keyof typeof ADMIN_PAGES]>)[path];
  if (!loader) throw new Error(`No admin page at ${path}`);
  return loader;
}
