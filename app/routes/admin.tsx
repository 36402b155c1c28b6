import { pageTitle } from "~/lib/meta";
import { parseValues } from "~/lib/form";
import { data, useSearchParams } from "react-router";
import { AdminAudit } from "~/components/admin-audit";
import { AdminJobs } from "~/components/admin-jobs";
import { AdminReleases } from "~/components/admin-releases";
import { AdminUsers } from "~/components/admin-users";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import {
  ADMIN_ERRORS,
  ADMIN_TOASTS,
  normalizeSearchTerm,
  parseTesterDays,
  releaseFormSchema,
  releaseFormValues,
} from "~/domain/admin";
import type { ActionResult, FieldErrors, ToastInput } from "~/domain/action-result";
import { failure } from "~/server/action-reply.server";
import { ActionError } from "~/server/action-error.server";
import { listAuditEntries } from "~/server/audit/audit.server";
import { addTesterLicense, getUserSummary, revokeLicense } from "~/server/admin/manage-licenses.server";
import { deleteRelease, saveRelease } from "~/server/admin/manage-releases.server";
import type { UserSearchResult } from "~/domain/views";
import { searchUsers } from "~/server/admin/search-users.server";
import { requireAdmin, requireAdminAction } from "~/server/auth/session.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { jobsStatus } from "~/server/jobs/jobs.server";
import { getLogger } from "~/server/logger.server";
import { listReleases } from "~/server/releases/list-releases.server";
import { readForm } from "~/server/read-form.server";
import type { Route } from "./+types/admin";

/** Runs a read; on failure logs it and gives the spec's text instead. */
async function attempt<T>(
  failure: string,
  read: () => Promise<T>,
): Promise<{ value: T; error: null } | { value: null; error: string }> {
  try {
    return { value: await read(), error: null };
  } catch (error) {
    getLogger().error({ err: error }, failure);
    return { value: null, error: failure };
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q");
  const userId = url.searchParams.get("user");
  const term = normalizeSearchTerm(q);
  let search: { term: string; results: UserSearchResult[] | null; error: string | null } | null = null;
  if (q !== null) {
    search = term
      ? await attempt(ADMIN_ERRORS.search, () => searchUsers(term)).then((r) => ({
          term,
          results: r.value,
          error: r.error,
        }))
      : { term: "", results: null, error: ADMIN_ERRORS.blankSearch };
  }
  const selected = userId
    ? await attempt(ADMIN_ERRORS.fetchLicenses, async () => {
        const user = await getUserSummary(userId);
        return user ? { user, licenses: await listUserLicenses(user.id, { reveal: true }) } : null;
      })
    : null;
  const [releases, audit, jobs] = await Promise.all([
    attempt(ADMIN_ERRORS.loadReleases, () => listReleases()),
    attempt("Failed to load the audit log", () => listAuditEntries(100)),
    jobsStatus(),
  ]);
  return { search, selected, releases, audit, jobs, now: new Date().toISOString() };
}

/**
 * Every admin action checks the role itself (the page's guard is not enough): 401 signed out,
 * 403 for ordinary users, and nothing is changed.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdminAction(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const ok = (toast: Omit<ToastInput, "variant">) =>
    data<ActionResult>({ ok: true, toast: { ...toast, variant: "success" } });
  const fail = (status: number, description: string, fieldErrors?: FieldErrors) =>
    failure(status, { description, fieldErrors, formError: false });
  const failures: Record<string, string> = {
    revoke: ADMIN_ERRORS.revoke,
    "add-tester": ADMIN_ERRORS.addTester,
    "save-release": ADMIN_ERRORS.saveRelease,
    "delete-release": ADMIN_ERRORS.deleteRelease,
  };
  try {
    switch (intent) {
      case "revoke":
        await revokeLicense({ admin, licenseId: String(form.get("licenseId") ?? "") });
        return ok(ADMIN_TOASTS.revoked);
      case "add-tester": {
        const days = parseTesterDays(form.get("days"));
        await addTesterLicense({ admin, userId: String(form.get("userId") ?? ""), days });
        return ok(ADMIN_TOASTS.testerAdded(days));
      }
      case "save-release": {
        const parsed = parseValues(releaseFormSchema, releaseFormValues(form));
        if (!parsed.success) return fail(400, Object.values(parsed.fieldErrors)[0]![0]!, parsed.fieldErrors);
        const id = String(form.get("id") ?? "") || null;
        const { created } = await saveRelease({ admin, id, release: parsed.data });
        return ok((created ? ADMIN_TOASTS.releaseCreated : ADMIN_TOASTS.releaseUpdated)(parsed.data.version));
      }
      case "delete-release": {
        const { version } = await deleteRelease({ admin, id: String(form.get("id") ?? "") });
        return ok(ADMIN_TOASTS.releaseDeleted(version));
      }
      default:
        return fail(400, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error, intent }, "admin action failed");
    return fail(500, failures[intent] ?? "The action failed.");
  }
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const initialTab = searchParams.get("tab") ?? "users";
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight">Administration</h1>
      <p className="mt-1 text-muted-foreground">Users and their licenses, release notes, and the audit log.</p>
      <AdminJobs jobs={loaderData.jobs} />
      <Tabs defaultValue={initialTab} className="mt-8">
        <TabsList>
          <TabsTrigger value="users">Users</TabsTrigger>
          <TabsTrigger value="releases">Releases</TabsTrigger>
          <TabsTrigger value="audit">Audit log</TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <AdminUsers search={loaderData.search} selected={loaderData.selected} now={loaderData.now} />
        </TabsContent>
        <TabsContent value="releases">
          <AdminReleases releases={loaderData.releases.value} error={loaderData.releases.error} />
        </TabsContent>
        <TabsContent value="audit">
          <AdminAudit entries={loaderData.audit.value} error={loaderData.audit.error} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Administration"),
  { name: "description", content: "Manage users' licenses and the release notes." },
  { name: "robots", content: "noindex" },
];
