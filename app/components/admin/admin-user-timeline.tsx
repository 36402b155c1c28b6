import type { TimelinePage } from "~/domain/user-timeline";
import { formatDateTime } from "~/domain/format-date";
import { AdminPager } from "./admin-pager";
import { Badge } from "../ui/badge";

const dateTime = formatDateTime;

/** Everything that happened to the customer, newest first, paged by ?timeline=N (decision 0038). */
export function AdminUserTimeline({ userId, timeline }: { userId: string; timeline: TimelinePage }) {
  return (
    <div className="flex flex-col gap-3">
      {timeline.entries.length === 0 ? (
        <p className="text-muted-foreground">Nothing recorded about this customer yet.</p>
      ) : (
        <ol className="flex flex-col divide-y rounded-lg border" aria-label="Timeline, newest first">
          {timeline.entries.map((entry) => (
            <li
              key={`${entry.source}-${entry.id}`}
              className="flex flex-col gap-1 px-3 py-2 text-sm sm:flex-row sm:gap-4"
              data-testid="timeline-entry"
            >
              <time dateTime={entry.at} className="shrink-0 text-xs text-muted-foreground sm:w-40 sm:pt-0.5">
                {dateTime(entry.at)}
              </time>
              <div className="flex min-w-0 flex-col gap-0.5">
                <span className="flex flex-wrap items-center gap-2 font-medium">
                  {entry.title}
                  {entry.source === "admin" ? <Badge variant="outline">Support</Badge> : null}
                </span>
                {entry.detail ? (
                  <span className="break-words text-xs text-muted-foreground">{entry.detail}</span>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      <AdminPager
        page={timeline.page}
        hasNext={timeline.hasNext}
        href={(page) => `/admin/users/${userId}?timeline=${page}#user-timeline`}
        label="Timeline pages"
      />
    </div>
  );
}
