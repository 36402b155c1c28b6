import { renderSitemap } from "~/domain/site-files";
import { listReleases } from "~/server/releases/list-releases.server";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  const [latest] = await listReleases({ limit: 1 });
  return new Response(renderSitemap(context.publicConfig.publicUrl, latest?.release_date ?? null), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
