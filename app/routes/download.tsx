import { publicPageMeta } from "~/lib/meta";
import { Download, ExternalLink, Rss } from "~/components/lucide-icons";
import { Link, useNavigation } from "react-router";
import { ReleaseList, ReleaseListSkeleton } from "~/components/release-list";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatReleaseDate } from "~/domain/release-format";
import { newestOffered } from "~/domain/release-channel";
import { TRIAL_DAYS } from "~/domain/plans";
import { useRootData } from "~/components/use-root-data";
import { InstallerDetails } from "~/components/installer-details";
import { getEnv } from "~/server/env.server";
import { listReleases } from "~/server/releases/list-releases.server";
import type { Route } from "./+types/download";

export const DOWNLOAD_RELEASES = 3;

/**
 * The stable channel only: published, never yanked (decision 0039). The latest card is the newest
 * version of them (the update check's rule); its size and SHA-256 describe the file its button gets.
 */
export async function loader() {
  const offered = await listReleases({ which: "offered", channels: ["stable"] });
  return {
    latest: newestOffered(offered, "stable") ?? undefined,
    releases: offered.slice(0, DOWNLOAD_RELEASES),
    wingetPackageId: getEnv().WINGET_PACKAGE_ID ?? null,
  };
}

/** The newest release: its version and date, the two ways to get it, and the installer's details. */
function LatestVersionCard({
  latest,
  wingetPackageId,
}: {
  latest: Route.ComponentProps["loaderData"]["releases"][number] | undefined;
  wingetPackageId: string | null;
}) {
  const config = useRootData()?.publicConfig;
  // The release's own installer, else the site's: the size and SHA-256 below describe this file.
  const downloadUrl = latest?.download_url ?? config?.downloadUrl;
  return (
    <Card className="border-primary/40">
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Latest version{latest ? ` ${latest.version}` : ""}</h2>
        </CardTitle>
        <CardDescription>
          {latest ? (
            <>
              Released <time dateTime={latest.release_date}>{formatReleaseDate(latest.release_date)}</time>
              {latest.title ? ` · ${latest.title}` : ""}
            </>
          ) : (
            "The current installer for Windows."
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild size="lg">
            <a href={downloadUrl ?? "#"} download>
              <Download aria-hidden />
              Download for Windows (.zip)
            </a>
          </Button>
          <Button asChild size="lg" variant="outline">
            <a href={config?.storeUrl ?? "#"} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden />
              Get it from the Microsoft Store
            </a>
          </Button>
        </div>
        <InstallerDetails
          release={latest}
          wingetPackageId={wingetPackageId}
          downloadUrl={downloadUrl ?? "forgekit.zip"}
        />
      </CardContent>
    </Card>
  );
}

function SystemRequirementsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">System requirements</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-muted-foreground">
          <li>Windows 10 version 1809 or later, or Windows 11 (64-bit)</li>
          <li>4 GB of memory; 8 GB for solutions with more than 500 components</li>
          <li>200 MB of free disk space</li>
          <li>An internet connection for activation, or an offline license</li>
        </ul>
      </CardContent>
    </Card>
  );
}

/** The last few releases (a skeleton while the page loads again), with the feed and the full notes. */
function RecentReleases({ releases }: { releases: Route.ComponentProps["loaderData"]["releases"] }) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/download";
  return (
    <section aria-labelledby="recent-releases" className="mt-12">
      <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
        <h2 id="recent-releases" className="text-2xl font-semibold tracking-tight">
          Recent releases
        </h2>
        <div className="flex items-center gap-4 text-sm">
          <a
            href="/release-notes.atom"
            className="inline-flex items-center gap-1.5 text-muted-foreground hover:text-foreground"
          >
            <Rss aria-hidden className="size-4" /> Feed
          </a>
          <Link to="/release-notes" className="text-primary underline underline-offset-4">
            View all release notes
          </Link>
        </div>
      </div>
      {loading ? (
        <ReleaseListSkeleton count={DOWNLOAD_RELEASES} />
      ) : releases.length === 0 ? (
        <p className="rounded-xl border border-dashed p-8 text-center text-muted-foreground">
          No releases available yet.
        </p>
      ) : (
        <ReleaseList releases={releases} headingLevel={3} />
      )}
    </section>
  );
}

export default function DownloadPage({ loaderData }: Route.ComponentProps) {
  const { latest, releases, wingetPackageId } = loaderData;
  const config = useRootData()?.publicConfig;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">
        Download {config?.productName ?? "ForgeKit"}
      </h1>
      <p className="mt-2 max-w-2xl text-muted-foreground">
        The installer for Windows. New users get a {TRIAL_DAYS}-day free trial with their first license; no card is
        needed to download.
      </p>

      <div className="mt-8 grid gap-6 lg:grid-cols-[1.4fr_1fr]">
        <LatestVersionCard latest={latest} wingetPackageId={wingetPackageId} />
        <SystemRequirementsCard />
      </div>

      <RecentReleases releases={releases} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/download",
    title: "Download",
    description: "Download the Windows installer, see system requirements and what changed in the latest releases.",
  });
