import { pageTitle } from "~/lib/meta";
import { data, Link, useNavigate, useNavigation, useSearchParams } from "react-router";
import { AdminAudit } from "~/components/admin/admin-audit";
import { AdminJobs } from "~/components/admin/admin-jobs";
import { AdminOverview } from "~/components/admin/admin-overview";
import { AdminMachinesOverview } from "~/components/admin/admin-machines-overview";
import { AdminReleases } from "~/components/admin/admin-releases";
import { AdminUsers } from "~/components/admin/admin-users";
import { AdminTeamMatches } from "~/components/admin/admin-user-teams";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import {
  ADMIN_ERRORS,
  ADMIN_TABS,
  ADMIN_TOASTS,
  normalizeSearchTerm,
  parseAdminTab,
  parsePage,
  type AdminTab,
} from "~/domain/admin";
import { parseAuditFilters } from "~/domain/admin-audit";
import { parseSearchQuery } from "~/domain/admin-search";
import type { ActionResult, FieldErrors, ToastInput } from "~/domain/action-result";
import type { AdminTeamMatch } from "~/domain/admin-team";
import { failure } from "~/server/action-reply.server";
import { ActionError } from "~/server/action-error.server";
import { auditActions, listAudit } from "~/server/admin/audit-log.server";
import { deleteRelease } from "~/server/admin/manage-releases.server";
import { VersionRefused } from "~/server/releases/release-writes.server";
import { RELEASE_INTENTS, releaseAction, releaseRefused } from "~/server/admin/release-actions.server";
import { getOverview } from "~/server/admin/overview.server";
import { machinesOverview } from "~/server/machines/machines-overview.server";
import { withMatchedLicenses } from "~/server/admin/search-license-states.server";
import { listUsers, searchUsers } from "~/server/admin/search-users.server";
import { searchTeams } from "~/server/teams/team-views.server";
import { currentAdmin } from "~/server/auth/admin-guard.server";
import { jobsStatus } from "~/server/jobs/jobs.server";
import { getLogger } from "~/server/logger.server";
import { listReleases } from "~/server/releases/list-releases.server";
import { readForm } from "~/server/read-form.server";
import type { Route } from "./+types/index";

/** Teams whose name contains the term, as the users tab lists them. */
async function teamMatches(term: string): Promise<AdminTeamMatch[]> {
  const rows = await searchTeams(term);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Runs a read; on failure logs it and gives the page's text instead. */
async function attemptRead<T>(
  failure: string,
  read: () => Promise<T>,
  failed?: () => void,
): Promise<{ value: T; error: null } | { value: null; error: string }> {
  try {
    return { value: await read(), error: null };
  } catch (error) {
    getLogger().error({ err: error }, failure);
    failed?.();
    return { value: null, error: failure };
  }
}

const TAB_LABELS: Record<AdminTab, string> = {
  overview: "Overview",
  users: "Users",
  releases: "Releases",
  audit: "Audit log",
};

/**
 * The tab, its filters and its page live in the URL (`?tab=users&q=…&page=2`), so a reload or a
 * shared link shows the same view; only the shown tab's data is read.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  currentAdmin(context);
  const params = new URL(request.url).searchParams;
  const tab = parseAdminTab(params.get("tab"));
  const jobs = await jobsStatus();
  const base = { tab, jobs, now: new Date().toISOString() };
  // The same admin session may get this page again from memory for ten seconds (the job queue's
  // figures), unless any user's data, the audit log or a release changes first (decision 0028).
  // A page showing a failed read is not kept.
  let readFailed = false;
  const attempt = <T,>(failure: string, read: () => Promise<T>) =>
    attemptRead(failure, read, () => (readFailed = true));
  const answer = await adminTabData();
  if (!readFailed) context.reuseAnswerUntil?.(new Date(Date.now() + 10_000), { showsOtherUsers: true });
  return answer;

  async function adminTabData() {
    switch (tab) {
      case "overview":
        return {
          ...base,
          overview: await attempt(ADMIN_ERRORS.loadOverview, () => getOverview()),
          machines: await attempt(ADMIN_ERRORS.loadOverview, () => machinesOverview()),
        };
      case "users": {
        const term = normalizeSearchTerm(params.get("q")) ?? "";
        const page = parsePage(params.get("page"));
        const parsed = term ? parseSearchQuery(term) : null;
        if (parsed?.error)
          return data({ ...base, users: { term, page, value: null, error: parsed.error } }, { status: 400 });
        const query = parsed?.query ?? null;
        const read = await attempt(query ? ADMIN_ERRORS.search : ADMIN_ERRORS.loadUsers, () =>
          query ? searchUsers(query, page).then(withMatchedLicenses) : listUsers(page),
        );
        // A term also finds teams by name (issue 30), listed above the users on the first page.
        const teams =
          term && page === 1 ? ((await attempt(ADMIN_ERRORS.search, () => teamMatches(term))).value ?? []) : [];
        return { ...base, users: { term, page, ...read }, teams };
      }
      case "releases":
        return { ...base, releases: await attempt(ADMIN_ERRORS.loadReleases, () => listReleases()) };
      case "audit": {
        const { filters, page, error } = parseAuditFilters(params);
        const actions = await attempt(ADMIN_ERRORS.loadAudit, () => auditActions());
        if (error) {
          return data(
            { ...base, audit: { filters, page, actions: actions.value ?? [], value: null, error } },
            { status: 400 },
          );
        }
        const read = await attempt(ADMIN_ERRORS.loadAudit, () => listAudit(filters, page));
        return { ...base, audit: { filters, page, actions: actions.value ?? [], ...read } };
      }
    }
  }
}

/**
 * Release changes. The admin layout's guard has refused everyone else (401 signed out, 403 for
 * users and admins without two-factor) with the role read from the database. License actions are
 * on the user's page (routes/admin/user.tsx).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const ok = (toast: Omit<ToastInput, "variant">) =>
    data<ActionResult>({ ok: true, toast: { ...toast, variant: "success" } });
  const fail = (status: number, description: string, fieldErrors?: FieldErrors) =>
    failure(status, { description, fieldErrors, formError: false });
  const failures: Record<string, string> = {
    "save-release": ADMIN_ERRORS.saveRelease,
    "delete-release": ADMIN_ERRORS.deleteRelease,
  };
  try {
    if (RELEASE_INTENTS.has(intent)) return await releaseAction(admin, intent, form);
    switch (intent) {
      case "delete-release": {
        const { version } = await deleteRelease({ admin, id: String(form.get("id") ?? "") });
        return ok(ADMIN_TOASTS.releaseDeleted(version));
      }
      default:
        return fail(400, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    if (error instanceof VersionRefused) return releaseRefused(error);
    getLogger().error({ err: error, intent }, "admin action failed");
    return fail(500, failures[intent] ?? "The action failed.");
  }
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  // While another tab loads, it is already shown as chosen.
  const pending =
    navigation.location?.pathname === "/admin"
      ? parseAdminTab(new URLSearchParams(navigation.location.search).get("tab"))
      : null;
  const tab = pending ?? parseAdminTab(searchParams.get("tab"));
  const loading = pending !== null && pending !== loaderData.tab;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight">Administration</h1>
      <p className="mt-1 text-muted-foreground">
        How the business is doing, users and their licenses, release notes, and the audit log.{" "}
        <Link to="/admin/tokens" className="text-primary underline underline-offset-4">
          API tokens
        </Link>
        {" · "}
        <Link to="/admin/webhooks" className="text-primary underline underline-offset-4">
          Webhooks
        </Link>
      </p>
      <AdminJobs jobs={loaderData.jobs} />
      <Tabs
        value={tab}
        onValueChange={(next) => navigate(`/admin?tab=${next}`, { preventScrollReset: true })}
        className="mt-8"
      >
        <TabsList className="flex h-auto w-full flex-wrap sm:w-fit">
          {ADMIN_TABS.map((value) => (
            <TabsTrigger key={value} value={value}>
              {TAB_LABELS[value]}
            </TabsTrigger>
          ))}
        </TabsList>
        {ADMIN_TABS.map((value) => (
          <TabsContent key={value} value={value} aria-busy={loading}>
            {loading || loaderData.tab !== value ? (
              <p className="text-muted-foreground">Loading…</p>
            ) : (
              <TabView data={loaderData} />
            )}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}

function TabView({ data }: { data: Route.ComponentProps["loaderData"] }) {
  if ("overview" in data) {
    return (
      <>
        <AdminOverview overview={data.overview.value} error={data.overview.error} />
        <AdminMachinesOverview overview={data.machines.value} />
      </>
    );
  }
  if ("users" in data)
    return (
      <>
        {"teams" in data ? <AdminTeamMatches term={data.users.term} teams={data.teams} /> : null}
        <AdminUsers list={data.users} />
      </>
    );
  if ("releases" in data) {
    return <AdminReleases releases={data.releases.value} error={data.releases.error} />;
  }
  if ("audit" in data) return <AdminAudit audit={data.audit} />;
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Administration"),
  { name: "description", content: "Manage users' licenses and the release notes." },
  { name: "robots", content: "noindex" },
];
