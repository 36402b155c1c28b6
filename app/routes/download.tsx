import { publicPageMeta } from "~/lib/meta";
import { Download, ExternalLink, Rss } from "lucide-react";
import { Link, useNavigation } from "react-router";
import { ReleaseList, ReleaseListSkeleton } from "~/components/release-list";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatReleaseDate } from "~/domain/release-format";
import { useRootData } from "~/components/use-root-data";
import { InstallerDetails } from "~/components/installer-details";
import { getEnv } from "~/server/env.server";
import { listReleases } from "~/server/releases/list-releases.server";
import type { Route } from "./+types/download";

export const DOWNLOAD_RELEASES = 3;

export async function loader() {
  return {
    releases: await listReleases({ limit: DOWNLOAD_RELEASES }),
    wingetPackageId: getEnv().WINGET_PACKAGE_ID ?? null,
  };
}

export default function DownloadPage({ loaderData }: Route.ComponentProps) {
  const { releases, wingetPackageId } = loaderData;
  const config = useRootData()?.publicConfig;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/download";
  const latest = releases[0];
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">
        Download {config?.productName ?? "ForgeKit"}
      </h1>
      <p className="mt-2 max-w-2xl text-muted-foreground">
        The installer for Windows. New users get a 7-day free trial with their first license; no card is needed to
        download.
      </p>

      <div className="mt-8 grid gap-6 lg:grid-cols-[1.4fr_1fr]">
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
                <a href={config?.downloadUrl ?? "#"} download>
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
              downloadUrl={config?.downloadUrl ?? "forgekit.zip"}
            />
          </CardContent>
        </Card>
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
      </div>

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
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/download",
    title: "Download",
    description: "Download the Windows installer, see system requirements and what changed in the latest releases.",
  });
