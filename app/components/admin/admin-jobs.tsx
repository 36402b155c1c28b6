import { Link } from "react-router";

/** What the admin page shows of the background job queue (app/server/jobs). */
export interface AdminJobsView {
  ok: boolean;
  queued: number;
  failed: number;
  lastFailure: { kind: string; failedAt: string; error: string; key: string | null } | null;
}

/**
 * Background jobs: how many are waiting, and the jobs that ran out of retries (count and the
 * newest one's error); both counts open the jobs page (/admin/jobs), where a failed job is retried
 * or discarded.
 */
export function AdminJobs({ jobs }: { jobs: AdminJobsView }) {
  return (
    <section aria-labelledby="admin-jobs-title" className="mt-6 rounded-lg border p-4 text-sm">
      <h2 id="admin-jobs-title" className="font-medium">
        Background jobs
      </h2>
      {!jobs.ok ? (
        <p role="alert" className="mt-1 text-destructive">
          The job queue is not running.
        </p>
      ) : (
        <p className="mt-1 text-muted-foreground">
          <Link to="/admin/jobs" className="underline underline-offset-2">
            {jobs.queued} waiting
          </Link>{" "}
          ·{" "}
          <Link to="/admin/jobs#failed-jobs" className="underline underline-offset-2">
            {jobs.failed} failed
          </Link>
        </p>
      )}
      {jobs.lastFailure ? (
        <p className="mt-2 break-words">
          <span className="font-medium">Last failure</span> ({jobs.lastFailure.kind},{" "}
          <time dateTime={jobs.lastFailure.failedAt}>
            {jobs.lastFailure.failedAt.replace("T", " ").slice(0, 19)} UTC
          </time>
          {jobs.lastFailure.key ? `, ${jobs.lastFailure.key}` : ""}): {jobs.lastFailure.error}
        </p>
      ) : null}
    </section>
  );
}
