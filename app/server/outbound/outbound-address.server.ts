import { lookup as lookupCallback } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { getEnv } from "../env.server";

/**
 * Where the server may connect when it fetches an address someone typed (a webhook endpoint, a
 * release's installer; decision 0044, 0055): never a private, loopback, link-local or otherwise
 * internal address, in any of its spellings (IPv4-mapped `::ffff:7f00:1`, IPv4-compatible
 * `::127.0.0.1`, 6to4 `2002::/16`, site-local `fec0::/10`, NAT64), checked on the address the
 * connection uses. Embedded mode and tests allow them (a receiver on the machine works); production
 * never does.
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
  // IPv4-compatible (deprecated), `::` and `::1` among them.
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  // Teredo and 6to4 carry an IPv4 address a relay connects to.
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  internal.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:1.2.3.4` or `::ffff:102:304`), or null. */
function mappedIpv4(address: string): string | null {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether an IP address is private, loopback, link-local, reserved or multicast, in any spelling; a non-address is. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = mappedIpv4(bare);
    if (mapped !== null) return isInternalAddress(mapped);
  }
  return internal.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/** An address the outbound rules refuse, found before connecting or by the connection's lookup. */
export class OutboundRefused extends Error {
  override name = "OutboundRefused";
}

/** Production rules apply (not embedded mode): https only, no internal addresses. */
export function outboundRulesStrict(): boolean {
  return !getEnv().embedded;
}

/** A DNS lookup for the connection that refuses internal addresses when strict. */
export function guardedLookup(strict: boolean): LookupFunction | undefined {
  if (!strict) return undefined;
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const inside = list.find((a) => isInternalAddress(a.address));
      if (inside) {
        const refused = new OutboundRefused(
          `${hostname} resolves to a private or loopback address (${inside.address})`,
        );
        return callback(refused, "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
