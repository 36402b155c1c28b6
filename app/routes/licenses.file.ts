import { requireUser } from "~/http/session-guards.server";
import { ActionError } from "~/server/action-error.server";
import { getEnv } from "~/server/env.server";
import { issueLicenseFile } from "~/server/license-api/license-file.server";
import { getOwnLicense } from "~/server/licenses/own-license.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/licenses.file";

export const NOT_VALID_FOR_FILE = "Only a license that is valid now has a license file.";

/**
 * "Download license file" on a license card: the signed file for offline use (the same as the
 * desktop API's), for the license's owner only (404 otherwise), only while the license is valid.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  let license;
  try {
    license = await getOwnLicense(user.id, params.licenseId);
  } catch (error) {
    if (error instanceof ActionError) return new Response("License not found", { status: 404 });
    throw error;
  }
  const { file } = issueLicenseFile(license);
  if (!file)
    return redirectWithToast("/licenses", { title: "Error", description: NOT_VALID_FOR_FILE, variant: "destructive" });
  const product =
    getEnv()
      .PRODUCT_NAME.toLowerCase()
      .replace(/[^a-z0-9]+/g, "-") || "license";
  return new Response(`${JSON.stringify(file, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${product}-${license.id.slice(0, 8)}.lic"`,
      "Cache-Control": "private, no-store",
    },
  });
}
