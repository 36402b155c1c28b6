import { renderReleaseFeed } from "~/domain/atom-feed";
import { listReleases } from "~/server/releases/list-releases.server";
import type { Route } from "./+types/release-notes-atom";

/** The releases as an Atom feed, for feed readers and the desktop tool's update check. */
export async function loader({ context }: Route.LoaderArgs) {
  const { productName, publicUrl } = context.publicConfig;
  const body = renderReleaseFeed({ productName, publicUrl, releases: await listReleases() });
  return new Response(body, {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
