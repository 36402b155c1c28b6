import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { lookup as lookupCallback } from "node:dns";
import { checkWebhookUrl } from "~/domain/webhooks";
import { getEnv } from "../env.server";

/**
 * Where a webhook may go (decision 0044): in production only https, and never to a private,
 * loopback, link-local or otherwise internal address, checked when the endpoint is saved and
 * again at every delivery, on the address the connection actually uses (`guardedLookup`), so a
 * name that later resolves inside cannot reach it. Embedded mode and tests allow http and
 * 127.0.0.1, so a receiver on the machine works.
 */

const internal = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  internal.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  internal.addSubnet(net, prefix, "ipv6");
}

/** Whether an IP address is private, loopback, link-local, reserved or multicast (IPv4-mapped IPv6 included). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isInternalAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return true;
  return internal.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Production rules apply (not embedded mode). */
export function webhookRulesStrict(): boolean {
  return !getEnv().embedded;
}

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

/** A DNS lookup for the delivery's connection that refuses internal addresses in production. */
export function guardedLookup(strict: boolean): LookupFunction | undefined {
  if (!strict) return undefined;
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const inside = list.find((a) => isInternalAddress(a.address));
      if (inside) {
        return callback(new Error(`${hostname} resolves to a private or loopback address (${inside.address})`), "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
