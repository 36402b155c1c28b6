import { describe, expect, it } from "vitest";
import { isForeignRequest, siteOrigins } from "../../../server/origin-guard";

const SITE = "https://shop.example.com";
const isSite = (origin: string) => origin === SITE;

describe("the origin check of state-changing requests", () => {
  it.each([
    [{ origin: SITE }, false],
    [{ origin: `${SITE}/` }, false],
    [{ origin: "https://billing.shop.example.com" }, true],
    [{ origin: "http://shop.example.com" }, true],
    [{ origin: "https://shop.example.com:8443" }, true],
    [{ origin: "null" }, true],
    [{ origin: "::not a url::" }, true],
    // Origin decides when present, whatever the rest says.
    [{ origin: SITE, "sec-fetch-site": "same-origin", referer: "https://evil.example/" }, false],
    [{ "sec-fetch-site": "cross-site" }, true],
    [{ "sec-fetch-site": "same-site" }, true],
    [{ "sec-fetch-site": "same-origin" }, false],
    [{ "sec-fetch-site": "none" }, false],
    [{ referer: `${SITE}/profile` }, false],
    [{ referer: "https://evil.example/page" }, true],
    [{ referer: "not a url" }, true],
    [{ "sec-fetch-site": "same-origin", referer: "https://evil.example/" }, true],
    [{}, false],
  ])("%j is foreign: %s", (headers, foreign) => {
    expect(isForeignRequest(headers, isSite)).toBe(foreign);
  });

  it("in production only PUBLIC_URL's origin is the site's; embedded mode also takes the address the request was sent to", () => {
    const production = siteOrigins({ PUBLIC_URL: `${SITE}/`, embedded: false });
    expect(production(SITE, "http://10.0.0.5:3000")).toBe(true);
    expect(production("http://10.0.0.5:3000", "http://10.0.0.5:3000")).toBe(false);
    const embedded = siteOrigins({ PUBLIC_URL: "http://localhost:3000", embedded: true });
    expect(embedded("http://127.0.0.1:3000", "http://127.0.0.1:3000")).toBe(true);
    expect(embedded("http://localhost:3000", null)).toBe(true);
    expect(embedded("http://evil.example", "http://127.0.0.1:3000")).toBe(false);
  });
});
