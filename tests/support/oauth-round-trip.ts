import { expect } from "vitest";
import * as loginOAuth from "~/routes/login.oauth";
import { getAuth } from "~/server/auth/auth.server";
import type { LocalProviders, ProviderIdentity } from "./oauth-providers";
import { call, cookieFrom, formRequest, routeArgs } from "./route-call";

/**
 * The browser's round trip of a GitHub / Google sign-in (or, with a session cookie, connecting the
 * provider): the button's form post, the local provider's authorize page (which signs the identity
 * in and redirects back with a code), and the site's callback. Returns where the callback sends the
 * browser and the cookie it then holds.
 */
export async function oauthRoundTrip(
  providers: LocalProviders,
  provider: "github" | "google",
  identity: ProviderIdentity,
  cookie = "",
) {
  providers.setIdentity(identity);
  const start = await call(() =>
    loginOAuth.action(routeArgs(formRequest("/login/oauth", { provider, redirectTo: "/licenses" }, cookie))),
  );
  expect(start.status).toBe(302);
  const authorize = start.headers.get("Location")!;
  let jar = cookieFrom(start.headers, cookie);
  const atProvider = await fetch(authorize, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callback = atProvider.headers.get("Location")!;
  expect(callback).toMatch(new RegExp(`/api/auth/callback/${provider}\\?`));
  const back = await getAuth().handler(new Request(callback, { headers: { Cookie: jar } }));
  jar = cookieFrom(back.headers, jar);
  return { authorize, location: back.headers.get("Location") ?? "", cookie: jar };
}
