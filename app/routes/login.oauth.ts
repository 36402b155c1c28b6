import { APIError } from "better-auth/api";
import { redirect } from "react-router";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import { authCookies } from "~/server/auth/auth-cookies.server";
import { getAuth } from "~/server/auth/auth.server";
import { configuredOAuthProviders, isOAuthProviderId } from "~/server/auth/oauth-providers.server";
import { hitRateLimit, RATE_LIMIT_MESSAGE } from "~/server/auth/rate-limit.server";
import { redirectWithToast } from "~/http/toast.server";
import { getCurrentSession, safeRedirect } from "~/server/auth/session.server";
import { getEnv } from "~/server/env.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/login.oauth";

export function loader() {
  return redirect("/login");
}

/**
 * Starts "Sign in with GitHub / Google" (signed out) or connecting the provider to the account
 * (signed in, from the profile): Better Auth's state cookie is set and the browser goes to the
 * provider; it comes back to /api/auth/callback/<provider>.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const provider = form.get("provider");
  const { user } = await getCurrentSession(request);
  // A plain form post (the buttons reload the document): answers go back to the page as a toast.
  const back = (status: number, description: string) =>
    redirectWithToast(
      user ? "/profile" : "/login",
      { title: status === 429 ? "Too many attempts" : A.oauthFailed, description, variant: "destructive" },
      { status: 303 },
    );
  if (!isOAuthProviderId(provider) || !configuredOAuthProviders(getEnv()).includes(provider)) {
    return back(400, "This login provider is not available.");
  }
  const limit = await hitRateLimit([`oauth:ip:${context.clientIp}`]);
  if (limit.limited) return back(429, RATE_LIMIT_MESSAGE);
  try {
    if (user) {
      const result = await getAuth().api.linkSocialAccount({
        body: { provider, callbackURL: "/profile?linked=1#connected-accounts", errorCallbackURL: "/profile" },
        headers: request.headers,
        returnHeaders: true,
      });
      return redirect(result.response.url, { headers: authCookies(result.headers) });
    }
    const result = await getAuth().api.signInSocial({
      body: {
        provider,
        callbackURL: safeRedirect(form.get("redirectTo")),
        errorCallbackURL: "/login",
      },
      headers: request.headers,
      returnHeaders: true,
    });
    if (!result.response.url) throw new Error("no authorization URL");
    return redirect(result.response.url, { headers: authCookies(result.headers) });
  } catch (error) {
    if (!(error instanceof APIError)) getLogger().error({ err: error }, "OAuth start failed");
    return back(400, A.oauthFailed);
  }
}
