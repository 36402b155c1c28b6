import { visitorCountry, type CountryCode } from "~/domain/countries";
import { getEnv } from "../env.server";

/**
 * The country whose prices a request sees (decision 0072): `?country=` when it names a country, else
 * the header COUNTRY_HEADER names (set by the proxy in front of the site), else unknown.
 */
export function requestCountry(request: Request): CountryCode | null {
  const header = getEnv().COUNTRY_HEADER;
  return visitorCountry(new URL(request.url).searchParams.get("country"), header ? request.headers.get(header) : null);
}
