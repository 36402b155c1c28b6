import { channelsOffered, parseChannel } from "~/domain/release-channel";
import { renderReleaseFeed } from "~/domain/atom-feed";
import { listReleases } from "~/server/releases/list-releases.server";
import type { Route } from "./+types/release-notes-atom";

/**
 * The releases as an Atom feed, for feed readers and the desktop tool's update check: the stable
 * channel, or with `?channel=beta` the beta channel (beta and stable). Drafts and yanked releases
 * are never in it; an unknown channel is a 400.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { productName, publicUrl } = context.publicConfig;
  const channel = parseChannel(new URL(request.url).searchParams.get("channel"));
  if (channel === null) {
    return new Response('Unknown channel: use "stable" or "beta".', {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const releases = await listReleases({ which: "offered", channels: channelsOffered(channel) });
  const body = renderReleaseFeed({ productName, publicUrl, releases, channel });
  return new Response(body, {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
