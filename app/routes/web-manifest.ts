import { webManifest } from "~/domain/site-files";
import type { Route } from "./+types/web-manifest";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(JSON.stringify(webManifest(context.publicConfig.productName)), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
