import { data } from "react-router";
import { AdminPage } from "~/components/admin/admin-nav";
import { AdminReleases } from "~/components/admin/admin-releases";
import type { ActionResult, FieldErrors, ToastInput } from "~/domain/action-result";
import { ADMIN_ERRORS, ADMIN_TOASTS } from "~/domain/admin";
import { failure, outcomeReply } from "~/http/action-reply.server";
import { readReleaseForm } from "~/http/admin-forms.server";
import { currentAdmin } from "~/http/admin-guard.server";
import { adminReads } from "~/http/admin-reads.server";
import { readForm } from "~/http/read-form.server";
import { pageTitle } from "~/lib/meta";
import { ActionError } from "~/server/action-error.server";
import { deleteRelease } from "~/server/admin/manage-releases.server";
import { RELEASE_INTENTS, releaseAction, releaseRefused } from "~/server/admin/release-actions.server";
import { getLogger } from "~/server/logger.server";
import { listReleases } from "~/server/releases/list-releases.server";
import { VersionRefused } from "~/server/releases/release-writes.server";
import type { Route } from "./+types/releases";

/** Every release, newest first. */
export async function loader({ context }: Route.LoaderArgs) {
  currentAdmin(context);
  const reads = adminReads(context);
  const releases = await reads.attempt(ADMIN_ERRORS.loadReleases, () => listReleases());
  reads.done();
  return { releases };
}

/**
 * Release changes: save (draft or publish), the flags, delete. The admin layout's guard has refused
 * everyone else (401 signed out, 403 for users and admins without two-factor) with the role read
 * from the database.
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
    if (RELEASE_INTENTS.has(intent)) {
      const { request: release, refusal } = readReleaseForm(intent, form);
      return outcomeReply(refusal ?? (await releaseAction(admin, release!)));
    }
    if (intent === "delete-release") {
      const { version } = await deleteRelease({ admin, id: String(form.get("id") ?? "") });
      return ok(ADMIN_TOASTS.releaseDeleted(version));
    }
    return fail(400, "Unknown action.");
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    if (error instanceof VersionRefused) return outcomeReply(releaseRefused(error));
    getLogger().error({ err: error, intent }, "admin action failed");
    return fail(500, failures[intent] ?? "The action failed.");
  }
}

export default function AdminReleasesRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Releases" intro="Release notes and installers, drafts and published.">
      <AdminReleases releases={loaderData.releases.value} error={loaderData.releases.error} />
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Releases · Administration"),
  { name: "robots", content: "noindex" },
];
