import { createHash } from "node:crypto";
import { MAX_INSTALLER_BYTES } from "~/domain/release-channel";
import { ActionError } from "../action-error.server";
import { absoluteDownloadUrl } from "../license-api/latest-update.server";

const DIGEST_TIMEOUT_MS = 120_000;

/**
 * The size and SHA-256 of the installer a release points to (its download address, or the site's
 * DOWNLOAD_URL), read from the address itself (issue 25): what the download page then shows is the
 * checksum of the file its button gets. Admins only (the admin form's "Compute from the file").
 */
export async function digestInstaller(
  downloadUrl: string | null,
): Promise<{ size: number; sha256: string; url: string }> {
  const url = downloadUrl ?? absoluteDownloadUrl();
  if (!/^https?:\/\//.test(url))
    throw new ActionError(422, `The address ${url} is not an http:// or https:// address.`);
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(DIGEST_TIMEOUT_MS) });
  } catch {
    throw new ActionError(502, `The file at ${url} could not be fetched.`);
  }
  if (!response.ok || !response.body) {
    throw new ActionError(502, `The file at ${url} could not be fetched (HTTP ${response.status}).`);
  }
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_INSTALLER_BYTES) throw new ActionError(422, `The file at ${url} is too large.`);
    hash.update(chunk);
  }
  if (size === 0) throw new ActionError(422, `The file at ${url} is empty.`);
  return { size, sha256: hash.digest("hex"), url };
}
