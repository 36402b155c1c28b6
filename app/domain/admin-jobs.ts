/** The background jobs page of the admin area (decision 0038): failed jobs, retried or discarded. */

export interface AdminJobView {
  id: string;
  kind: string;
  state: string;
  /** The last attempt's error (failed jobs), one line. */
  error: string | null;
  /** Attempts made so far (the first one included). */
  attempts: number;
  /** When the last attempt ended (failed) or the next one is due (waiting). */
  at: string | null;
  key: string | null;
}

export interface AdminJobsPage {
  ok: boolean;
  waiting: AdminJobView[];
  failed: AdminJobView[];
}

export const JOB_INTENTS = ["job-retry", "job-discard"] as const;
export type JobIntent = (typeof JOB_INTENTS)[number];

export function isJobIntent(value: unknown): value is JobIntent {
  return typeof value === "string" && (JOB_INTENTS as readonly string[]).includes(value);
}

/** How many jobs of each list the page shows (the newest). */
export const JOBS_LIST_LIMIT = 100;

export const JOB_TEXTS = {
  notFound: "This failed job no longer exists (retried, discarded or removed already).",
  notRunning: "The job queue is not running.",
  retried: { title: "Job retried", description: "It runs again in a moment." },
  discarded: { title: "Job discarded", description: "It will not run again." },
  failed: "The action failed. Nothing was changed.",
} as const;
