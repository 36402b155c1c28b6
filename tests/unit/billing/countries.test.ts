import { describe, expect, it } from "vitest";
import { COUNTRY_COUNT, countryName, parseCountry, visitorCountry } from "~/domain/countries";

describe("country codes (ISO 3166-1 alpha-2)", () => {
  it("holds ISO's 249 assigned codes and Kosovo's XK", () => {
    expect(COUNTRY_COUNT).toBe(250);
  });

  it.each([
    ["DE", "DE"],
    ["de", "DE"],
    [" gb ", "GB"],
    ["JP", "JP"],
    ["XK", "XK"],
    ["US", "US"],
  ])("%j → %s", (input, code) => {
    expect(parseCountry(input)).toBe(code);
  });

  it.each([
    ["XX", "Cloudflare's unknown"],
    ["T1", "Cloudflare's Tor"],
    ["EU", "not a country"],
    ["UK", "not ISO's code for the United Kingdom"],
    ["DEU", "alpha-3"],
    ["D", "one letter"],
    ["", "empty"],
    ["Germany", "a name"],
    ["D3", "a digit"],
    ["<script>", "markup"],
  ])("%j is no country (%s)", (input) => {
    expect(parseCountry(input)).toBeNull();
  });

  it("reads only strings", () => {
    expect(parseCountry(undefined)).toBeNull();
    expect(parseCountry(null)).toBeNull();
    expect(parseCountry(["DE"])).toBeNull();
    expect(parseCountry(49)).toBeNull();
  });
});

describe("the visitor's country", () => {
  it("is the page's ?country= when it names one, whatever the header says", () => {
    expect(visitorCountry("FR", "DE")).toBe("FR");
    expect(visitorCountry("jp", null)).toBe("JP");
  });

  it("is the proxy's header when the query names none or no country", () => {
    expect(visitorCountry(null, "DE")).toBe("DE");
    expect(visitorCountry("nowhere", "DE")).toBe("DE");
    expect(visitorCountry("", "GB")).toBe("GB");
  });

  it("is unknown without either (US dollars)", () => {
    expect(visitorCountry(null, null)).toBeNull();
    expect(visitorCountry("ZZ", "XX")).toBeNull();
  });
});

describe("country names", () => {
  it("in English, from the runtime's names", () => {
    expect(countryName(parseCountry("DE")!)).toBe("Germany");
    expect(countryName(parseCountry("JP")!)).toBe("Japan");
    expect(countryName(parseCountry("GB")!)).toBe("United Kingdom");
  });
});
