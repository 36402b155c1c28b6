import { data } from "react-router";
import { AdminJobsList } from "~/components/admin/admin-jobs-list";
import { BackToAdmin } from "~/components/admin/admin-back";
import type { ActionResult } from "~/domain/action-result";
import { isJobIntent, JOB_TEXTS } from "~/domain/admin-jobs";
import { pageTitle } from "~/lib/meta";
import { ActionError } from "~/server/action-error.server";
import { failure } from "~/http/action-reply.server";
import { currentAdmin } from "~/http/admin-guard.server";
import { actOnFailedJob, listAdminJobs } from "~/server/jobs/failed-jobs.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/jobs";

/** The background jobs (decision 0038): what waits, what failed, and Retry / Discard (admins only: the layout's guard). */
export async function loader({ context }: Route.LoaderArgs) {
  currentAdmin(context);
  return { jobs: await listAdminJobs() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (!isJobIntent(intent)) return failure(400, { description: "Unknown action.", formError: false });
  try {
    const action = intent === "job-retry" ? "retry" : "discard";
    await actOnFailedJob({ admin, jobId: String(form.get("jobId") ?? ""), action });
    const toast = action === "retry" ? JOB_TEXTS.retried : JOB_TEXTS.discarded;
    return data<ActionResult>({ ok: true, toast: { ...toast, variant: "success" } });
  } catch (error) {
    if (error instanceof ActionError) return failure(error.status, { description: error.message, formError: false });
    getLogger().error({ err: error, intent }, "job action failed");
    return failure(500, { description: JOB_TEXTS.failed, formError: false });
  }
}

export default function AdminJobsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-12 sm:px-6">
      <BackToAdmin />
      <h1 className="text-2xl font-semibold tracking-tight">Background jobs</h1>
      <AdminJobsList jobs={loaderData.jobs} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Background jobs · Administration"),
  { name: "robots", content: "noindex" },
];
