import { rateLimited } from "~/http/action-reply.server";
import { exportAccountData } from "~/server/auth/export-account.server";
import { hitRateLimit } from "~/server/auth/rate-limit.server";
import { requireUser } from "~/http/session-guards.server";
import type { Route } from "./+types/profile.export";

/** "Export my data": the signed-in user's profile, licenses, payments and audit entries as a JSON download. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const limit = await hitRateLimit([`export:user:${user.id}`], { attempts: 5 });
  if (limit.limited) throw rateLimited("Export failed", limit.retryAfter);
  const body = JSON.stringify(await exportAccountData(user.id), null, 2);
  const date = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="forgekit-account-data-${date}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
