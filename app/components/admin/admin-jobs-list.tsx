import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import type { AdminJobsPage, AdminJobView } from "~/domain/admin-jobs";
import { Button } from "../ui/button";
import { useActionToast } from "../use-action-toast";

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");

function JobActions({ job }: { job: AdminJobView }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : undefined);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" className="flex flex-wrap gap-2">
      <input type="hidden" name="jobId" value={job.id} />
      <Button type="submit" name="intent" value="job-retry" size="sm" variant="outline" disabled={busy}>
        Retry
      </Button>
      <Button type="submit" name="intent" value="job-discard" size="sm" variant="destructive" disabled={busy}>
        Discard
      </Button>
    </fetcher.Form>
  );
}

function JobList({ jobs, failed }: { jobs: AdminJobView[]; failed: boolean }) {
  return (
    <ul className="flex flex-col gap-2" aria-label={failed ? "Failed jobs" : "Waiting jobs"}>
      {jobs.map((job) => (
        <li
          key={job.id}
          className="flex flex-col gap-2 rounded-lg border p-3 text-sm"
          data-testid={failed ? "failed-job" : "waiting-job"}
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">{job.kind}</span>
            <span className="text-xs text-muted-foreground">
              {job.attempts} {job.attempts === 1 ? "attempt" : "attempts"} · {failed ? "last try" : "next try"}{" "}
              <time dateTime={job.at ?? undefined}>{when(job.at)}</time>
            </span>
          </div>
          {job.key ? <p className="break-all font-mono text-xs text-muted-foreground">{job.key}</p> : null}
          {job.error ? <p className="break-words text-destructive">{job.error}</p> : null}
          {failed ? <JobActions job={job} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** Failed jobs (kind, error, attempts, last try) with Retry and Discard, and the jobs waiting to run. */
export function AdminJobsList({ jobs }: { jobs: AdminJobsPage }) {
  if (!jobs.ok)
    return (
      <p role="alert" className="text-destructive">
        The job queue is not running.
      </p>
    );
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="failed-jobs" className="flex flex-col gap-3">
        <h2 id="failed-jobs" className="text-lg font-semibold">
          Failed ({jobs.failed.length})
        </h2>
        {jobs.failed.length === 0 ? (
          <p className="text-muted-foreground">No failed jobs.</p>
        ) : (
          <JobList jobs={jobs.failed} failed />
        )}
      </section>
      <section aria-labelledby="waiting-jobs" className="flex flex-col gap-3">
        <h2 id="waiting-jobs" className="text-lg font-semibold">
          Waiting ({jobs.waiting.length})
        </h2>
        {jobs.waiting.length === 0 ? (
          <p className="text-muted-foreground">Nothing waiting.</p>
        ) : (
          <JobList jobs={jobs.waiting} failed={false} />
        )}
      </section>
    </div>
  );
}
