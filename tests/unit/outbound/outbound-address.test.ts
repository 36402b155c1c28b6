import { describe, expect, it } from "vitest";
import { isInternalAddress } from "~/server/outbound/outbound-address.server";
import { outboundUrlProblem } from "~/server/outbound/outbound-request.server";

// The outbound rules of every server-side fetch of a typed address (webhooks, the installer's
// checksum): an internal address in any spelling is refused.

describe("internal addresses in every spelling", () => {
  it.each([
    // IPv4-mapped (::ffff:0:0/96), dotted, hex and in full: judged by the IPv4 address inside.
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["0:0:0:0:0:ffff:7f00:1", true],
    ["::ffff:a9fe:a9fe", true],
    ["::ffff:c0a8:101", true],
    ["::ffff:808:808", false],
    ["::ffff:8.8.8.8", false],
    // IPv4-compatible (::/96).
    ["::127.0.0.1", true],
    ["[::127.0.0.1]", true],
    ["::7f00:1", true],
    ["::8.8.8.8", true],
    // 6to4 (2002::/16), Teredo, NAT64.
    ["2002:7f00:1::", true],
    ["2002:5db8:d70e::1", true],
    ["2001:0:4136:e378::1", true],
    ["64:ff9b::7f00:1", true],
    ["64:ff9b:1::1", true],
    // Site-local (fec0::/10), unique-local, link-local.
    ["fec0::1", true],
    ["feff::1", true],
    ["fd12::1", true],
    ["[fe80::1]", true],
    ["2606:4700::1111", false],
    ["93.184.215.14", false],
  ])("isInternalAddress(%s) is %s", (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it.each([
    ["https://[::127.0.0.1]/installer.zip", "is a private or loopback address"],
    ["https://[::ffff:127.0.0.1]/installer.zip", "is a private or loopback address"],
    ["https://[::ffff:7f00:1]/installer.zip", "is a private or loopback address"],
    ["https://[2002:7f00:1::]/installer.zip", "is a private or loopback address"],
    ["https://[fec0::1]/installer.zip", "is a private or loopback address"],
    ["https://127.1/installer.zip", "is a private or loopback address"],
    ["https://0x7f000001/installer.zip", "is a private or loopback address"],
    ["https://169.254.169.254/latest/meta-data", "is a private or loopback address"],
    ["http://downloads.example.com/installer.zip", "only https:// addresses are fetched in production"],
    ["https://a:b@downloads.example.com/installer.zip", "must not contain a user name or password"],
    ["file:///etc/passwd", "only http:// and https:// addresses are fetched"],
  ])("in production %s is refused before connecting", (raw, problem) => {
    expect(outboundUrlProblem(new URL(raw), true)).toContain(problem);
  });

  it("in production a public https address passes, and embedded mode allows the machine's own", () => {
    expect(outboundUrlProblem(new URL("https://93.184.215.14/installer.zip"), true)).toBeNull();
    expect(outboundUrlProblem(new URL("https://[2606:4700::1111]/installer.zip"), true)).toBeNull();
    expect(outboundUrlProblem(new URL("http://127.0.0.1:8080/installer.zip"), false)).toBeNull();
  });
});
