/**
 * Countries as the pricing page reads them (decision 0072): ISO 3166-1 alpha-2 codes, from the
 * page's `?country=` or the header a proxy sets (COUNTRY_HEADER). Pure, for browser and server.
 */

/**
 * ISO 3166-1's officially assigned codes, and XK (Kosovo), the user-assigned code that payment providers
 * and proxies' GeoIP headers use for it.
 */
const ISO_CODES = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP
KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS
MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU
RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA
UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW`;

const COUNTRIES: ReadonlySet<string> = new Set(ISO_CODES.trim().split(/\s+/));

/** An ISO 3166-1 alpha-2 code in capitals ("DE"). */
export type CountryCode = string & { readonly __country: unique symbol };

/** How many codes the table holds (ISO's 249 and XK): the table's own check. */
export const COUNTRY_COUNT = COUNTRIES.size;

/**
 * A country code from a visitor's input or a proxy's header: two letters, any case, that ISO 3166-1
 * assigns; anything else (a name, "XX" or "T1" for unknown or Tor, an empty value) is null.
 */
export function parseCountry(value: unknown): CountryCode | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && COUNTRIES.has(code) ? (code as CountryCode) : null;
}

/**
 * The country whose prices a visitor sees: the page's `?country=` when it names one (so any country's
 * prices can be looked at), else the proxy's header, else unknown (US dollars). A `?country=` that
 * names no country is ignored rather than refused: the visitor still gets a pricing page.
 */
export function visitorCountry(query: string | null, header: string | null): CountryCode | null {
  return parseCountry(query) ?? parseCountry(header);
}

let regionNames: Intl.DisplayNames | null | undefined;

/** The country's English name ("Germany"); its code where the runtime has no names. */
export function countryName(code: CountryCode): string {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(["en"], { type: "region" });
    } catch {
      regionNames = null;
    }
  }
  return regionNames?.of(code) ?? code;
}
