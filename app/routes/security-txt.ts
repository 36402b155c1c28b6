import { renderSecurityTxt } from "~/domain/site-files";
import type { Route } from "./+types/security-txt";

export function loader({ context }: Route.LoaderArgs) {
  const { supportEmail, publicUrl } = context.publicConfig;
  return new Response(renderSecurityTxt({ supportEmail, publicUrl, now: new Date() }), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
