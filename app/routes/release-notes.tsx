import { publicPageMeta } from "~/lib/meta";
import { Rss } from "~/components/lucide-icons";
import { Link, useNavigation } from "react-router";
import { ReleaseList, ReleaseListSkeleton } from "~/components/release-list";
import { listReleases } from "~/server/releases/list-releases.server";
import type { Route } from "./+types/release-notes";

export async function loader() {
  // Published releases of every channel; beta and yanked ones are marked (drafts are on no public page).
  return { releases: await listReleases({ which: "published" }) };
}

export default function ReleaseNotes({ loaderData }: Route.ComponentProps) {
  const { releases } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/release-notes";
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Release notes</h1>
          <p className="mt-2 text-muted-foreground">Every release, newest first.</p>
        </div>
        <div className="flex items-center gap-4 text-sm">
          <a
            href="/release-notes.atom"
            className="inline-flex items-center gap-1.5 text-muted-foreground hover:text-foreground"
          >
            <Rss aria-hidden className="size-4" /> Atom feed
          </a>
          <a
            href="/release-notes.atom?channel=beta"
            className="inline-flex items-center gap-1.5 text-muted-foreground hover:text-foreground"
          >
            <Rss aria-hidden className="size-4" /> Beta feed
          </a>
          <Link to="/download" className="text-primary underline underline-offset-4">
            Download
          </Link>
        </div>
      </div>
      <div className="mt-8">
        {loading ? (
          <ReleaseListSkeleton />
        ) : releases.length === 0 ? (
          <p className="rounded-xl border border-dashed p-8 text-center text-muted-foreground">
            No releases available yet.
          </p>
        ) : (
          <ReleaseList releases={releases} />
        )}
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/release-notes",
    title: "Release notes",
    description: "What changed in each release of the tool, newest first.",
  });
