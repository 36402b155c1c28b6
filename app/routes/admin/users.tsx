import { data } from "react-router";
import { AdminPage } from "~/components/admin/admin-nav";
import { AdminTeamMatches } from "~/components/admin/admin-user-teams";
import { AdminUsers } from "~/components/admin/admin-users";
import { ADMIN_ERRORS, normalizeSearchTerm, parsePage } from "~/domain/admin";
import { parseSearchQuery } from "~/domain/admin-search";
import type { AdminTeamMatch } from "~/domain/admin-team";
import { currentAdmin } from "~/http/admin-guard.server";
import { adminReads } from "~/http/admin-reads.server";
import { pageTitle } from "~/lib/meta";
import { nearMatches } from "~/server/admin/near-matches.server";
import { withMatchedLicenses } from "~/server/admin/search-license-states.server";
import { listUsers, searchUsers } from "~/server/admin/search-users.server";
import { searchTeams } from "~/server/teams/team-views.server";
import type { Route } from "./+types/users";

/** Teams whose name contains the term, listed above the users. */
async function teamMatches(term: string): Promise<AdminTeamMatch[]> {
  const rows = await searchTeams(term);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Users, newest first or found by a term; the term and the page live in the URL (`?q=…&page=2`). */
export async function loader({ request, context }: Route.LoaderArgs) {
  currentAdmin(context);
  const params = new URL(request.url).searchParams;
  const term = normalizeSearchTerm(params.get("q")) ?? "";
  const page = parsePage(params.get("page"));
  const parsed = term ? parseSearchQuery(term) : null;
  if (parsed?.error)
    return data({ users: { term, page, value: null, error: parsed.error }, teams: [] }, { status: 400 });
  const query = parsed?.query ?? null;
  const reads = adminReads(context);
  const read = await reads.attempt(query ? ADMIN_ERRORS.search : ADMIN_ERRORS.loadUsers, () =>
    query ? searchUsers(query, page).then(withMatchedLicenses) : listUsers(page),
  );
  // A term also finds teams by name, listed above the users on the first page.
  const teams =
    term && page === 1 ? ((await reads.attempt(ADMIN_ERRORS.search, () => teamMatches(term))).value ?? []) : [];
  // Nobody found by free text: the accounts closest to it ("Did you mean"), e.g. an address with a typo.
  const near =
    query?.kind === "text" && page === 1 && read.value?.users.length === 0
      ? ((await reads.attempt(ADMIN_ERRORS.search, () => nearMatches(term))).value ?? [])
      : [];
  reads.done();
  return { users: { term, page, ...read, near }, teams };
}

export default function AdminUsersRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Users" intro="Users and their licenses.">
      <AdminTeamMatches term={loaderData.users.term} teams={loaderData.teams} />
      <AdminUsers list={loaderData.users} />
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Users · Administration"),
  { name: "robots", content: "noindex" },
];
