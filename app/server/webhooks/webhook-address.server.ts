import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { checkWebhookUrl } from "~/domain/webhooks";
import { isInternalAddress, outboundRulesStrict } from "../outbound/outbound-address.server";

/**
 * Where a webhook may go (decision 0044): the outbound rules (app/server/outbound/), checked when the
 * endpoint is saved, so the admin hears at once, and again at every delivery on the address the
 * connection actually uses (post-webhook.server.ts), so a name that later resolves inside cannot
 * reach it. Embedded mode and tests allow http and 127.0.0.1, so a receiver on the machine works.
 */

/** Production rules apply (not embedded mode). */
export const webhookRulesStrict = outboundRulesStrict;

/** The field error of a URL, or null: its shape, then (in production) every address its host resolves to. */
export async function webhookUrlProblem(raw: string, strict = webhookRulesStrict()): Promise<string | null> {
  const checked = checkWebhookUrl(raw, strict);
  if (checked.error !== null) return checked.error;
  if (!strict) return null;
  const host = checked.url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `The host ${host} could not be resolved.`;
  }
  if (addresses.length === 0) return `The host ${host} could not be resolved.`;
  const inside = addresses.find(isInternalAddress);
  return inside ? `The URL resolves to a private or loopback address (${inside}); use a public address.` : null;
}
