import { formatReleaseDate, releaseAnchor } from "~/domain/release-format";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card";
import { Skeleton } from "./ui/skeleton";

export interface ReleaseItem {
  id: string;
  version: string;
  title: string | null;
  release_date: string;
  release_notes: string[];
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
                  </Heading>
                </CardTitle>
                <CardDescription>
                  <time dateTime={release.release_date}>{formatReleaseDate(release.release_date)}</time>
                </CardDescription>
              </CardHeader>
              <CardContent>
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
