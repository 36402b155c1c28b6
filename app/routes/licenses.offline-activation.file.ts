import { getEnv } from "~/server/env.server";
import { requireUser } from "~/http/session-guards.server";
import { offlineActivation } from "~/server/license-api/offline-activation.server";
import type { Route } from "./+types/licenses.offline-activation.file";

/**
 * The activation file of an offline activation (decision 0071): the license file bound to the
 * machine, with the request's nonce, signed; issued anew at each download. Its uploader's own
 * license only (404 otherwise); a machine no longer active or a license no longer valid has none,
 * and the confirmation page says why.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const found = await offlineActivation(user.id, params.activationId);
  if (!found) return new Response("License not found", { status: 404 });
  if (!found.file)
    return new Response(null, { status: 303, headers: { Location: `/licenses/offline-activation/${found.view.id}` } });
  const product =
    getEnv()
      .PRODUCT_NAME.toLowerCase()
      .replace(/[^a-z0-9]+/g, "-") || "license";
  return new Response(`${JSON.stringify(found.file, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${product}-${found.view.shortId.toLowerCase()}-activation.lic"`,
      "Cache-Control": "private, no-store",
    },
  });
}
