import { formatReleaseDate, RELEASE_MARKS, releaseAnchor } from "~/domain/release-format";
import { Badge } from "./ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card";
import { Skeleton } from "./ui/skeleton";

export interface ReleaseItem {
  id: string;
  version: string;
  title: string | null;
  release_date: string;
  release_notes: string[];
  /** "beta" is marked; absent or "stable" is not. */
  channel?: string;
  /** A yanked release says so. */
  yanked_at?: string | null;
}

/** Releases as cards: version, optional title, date, and the list of changes. */
export function ReleaseList({ releases, headingLevel = 2 }: { releases: ReleaseItem[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ol className="flex flex-col gap-5">
      {releases.map((release) => (
        <li key={release.id}>
          <article id={releaseAnchor(release.version)} className="scroll-mt-24">
            <Card className="gap-4">
              <CardHeader>
                <CardTitle>
                  <Heading className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-lg">
                    <span className="font-mono text-primary">Version {release.version}</span>
                    {release.title ? <span className="text-foreground">{release.title}</span> : null}
                    <ReleaseMarks release={release} />
                  </Heading>
                </CardTitle>
                <CardDescription>
                  <time dateTime={release.release_date}>{formatReleaseDate(release.release_date)}</time>
                </CardDescription>
              </CardHeader>
              <CardContent className="flex flex-col gap-3">
                {release.yanked_at ? (
                  <p className="text-sm text-warning" data-testid="yanked-notice">
                    {RELEASE_MARKS.yankedNotice}
                  </p>
                ) : null}
                <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm leading-relaxed marker:text-muted-foreground">
                  {release.release_notes.map((note, i) => (
                    <li key={i}>{note}</li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          </article>
        </li>
      ))}
    </ol>
  );
}

/** The Beta and Yanked badges beside a release's version. */
function ReleaseMarks({ release }: { release: ReleaseItem }) {
  return (
    <>
      {release.channel === "beta" ? <Badge variant="secondary">{RELEASE_MARKS.beta}</Badge> : null}
      {release.yanked_at ? <Badge variant="warning">{RELEASE_MARKS.yanked}</Badge> : null}
    </>
  );
}

/** Placeholder cards while releases load. */
export function ReleaseListSkeleton({ count = 3 }: { count?: number }) {
  return (
    <div className="flex flex-col gap-5" aria-busy="true" aria-label="Loading releases">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="flex flex-col gap-3 rounded-xl border bg-card p-6">
          <Skeleton className="h-5 w-48" />
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-4/5" />
        </div>
      ))}
    </div>
  );
}
