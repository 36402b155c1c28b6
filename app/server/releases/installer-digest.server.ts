import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { MAX_INSTALLER_BYTES } from "~/domain/release-channel";
import { ActionError } from "../action-error.server";
import { absoluteDownloadUrl } from "../license-api/latest-update.server";
import { OutboundRefused, outboundRulesStrict } from "../outbound/outbound-address.server";
import { outboundRequest } from "../outbound/outbound-request.server";

const DIGEST_TIMEOUT_MS = 120_000;

/** The size and SHA-256 of an answer's body, refused past MAX_INSTALLER_BYTES or when it is not the file. */
async function digestOf(url: string, response: IncomingMessage): Promise<{ size: number; sha256: string }> {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    response.resume();
    const to = response.headers.location ? ` to ${response.headers.location}` : "";
    throw new ActionError(422, `The address ${url} redirects${to}: enter the file's own address.`);
  }
  if (status < 200 || status >= 300) {
    response.resume();
    throw new ActionError(502, `The file at ${url} could not be fetched (HTTP ${status}).`);
  }
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_INSTALLER_BYTES) throw new ActionError(422, `The file at ${url} is too large.`);
    hash.update(chunk);
  }
  if (size === 0) throw new ActionError(422, `The file at ${url} is empty.`);
  return { size, sha256: hash.digest("hex") };
}

/**
 * The size and SHA-256 of the installer a release points to (its download address, or the site's
 * DOWNLOAD_URL), read from the address itself (decision 0039): what the download page then shows is the
 * checksum of the file its button gets. Admins only (the admin form's "Compute from the file"),
 * through the outbound rules (app/server/outbound/): in production https only and never an internal
 * address, and never a redirect.
 */
export async function digestInstaller(
  downloadUrl: string | null,
  { strict = outboundRulesStrict() }: { strict?: boolean } = {},
): Promise<{ size: number; sha256: string; url: string }> {
  const url = downloadUrl ?? absoluteDownloadUrl();
  if (!/^https?:\/\//.test(url))
    throw new ActionError(422, `The address ${url} is not an http:// or https:// address.`);
  try {
    const digest = await outboundRequest(url, { method: "GET", strict, timeoutMs: DIGEST_TIMEOUT_MS }, (response) =>
      digestOf(url, response),
    );
    return { ...digest, url };
  } catch (error) {
    if (error instanceof ActionError) throw error;
    if (error instanceof OutboundRefused)
      throw new ActionError(422, `The address ${url} is refused: ${error.message}.`);
    throw new ActionError(502, `The file at ${url} could not be fetched.`);
  }
}
