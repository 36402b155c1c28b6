import type { GenericOAuthConfig } from "better-auth/plugins";
import { PROVIDER_EMAIL_UNVERIFIED } from "~/domain/account-texts";
import type { Env } from "../env.server";

export type OAuthProviderId = "github" | "google";

export const OAUTH_PROVIDER_NAMES: Record<OAuthProviderId, string> = { github: "GitHub", google: "Google" };

/** The providers whose client id and secret are both configured, in the order the buttons show. */
export function configuredOAuthProviders(env: Env): OAuthProviderId[] {
  const providers: OAuthProviderId[] = [];
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) providers.push("github");
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) providers.push("google");
  return providers;
}

export function isOAuthProviderId(value: unknown): value is OAuthProviderId {
  return value === "github" || value === "google";
}

interface GitHubUser {
  id: number | string;
  login?: string;
  name?: string | null;
  email?: string | null;
  avatar_url?: string | null;
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * The GitHub user behind an access token: the name (or login) and the primary e-mail with
 * whether GitHub has verified it (the /user answer's e-mail is only the public one). Only the
 * primary address counts, and only if verified: a secondary address, verified or not, or the
 * public profile address is never taken for the account's e-mail.
 */
export async function gitHubUserInfo(apiUrl: string, accessToken: string) {
  const headers = {
    Authorization: `Bearer ${accessToken}`,
    Accept: "application/vnd.github+json",
    "User-Agent": "forgekit-site",
  };
  const base = apiUrl.replace(/\/+$/, "");
  const userResponse = await fetch(`${base}/user`, { headers });
  if (!userResponse.ok) return null;
  const user = (await userResponse.json()) as GitHubUser;
  const emailsResponse = await fetch(`${base}/user/emails`, { headers });
  const emails = emailsResponse.ok ? ((await emailsResponse.json()) as GitHubEmail[]) : [];
  const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true) : undefined;
  const email = primary?.email ?? user.email;
  if (!email) return null;
  return {
    id: String(user.id),
    name: user.name || user.login || email.split("@")[0]!,
    email,
    emailVerified: primary?.verified === true,
    image: user.avatar_url ?? undefined,
  };
}

/**
 * Better Auth's `user.validateUserInfo` gate: an identity from GitHub or Google creates an account,
 * signs in to one or is connected to one only with an address the provider reports verified
 * (GitHub: the primary address with `verified: true`; Google: `email_verified`). Otherwise anyone
 * could add someone else's address to a provider account and take over, or pre-claim, the account
 * of that address. Sign-ins by password are not affected (their address is confirmed by e-mail).
 */
export function requireProviderVerifiedEmail(data: {
  user: { emailVerified?: unknown };
  source: { method: string };
}): { error: string; errorDescription: string } | undefined {
  if (data.source.method !== "oauth" || data.user.emailVerified === true) return undefined;
  return { error: PROVIDER_EMAIL_UNVERIFIED, errorDescription: "The provider has not verified this e-mail address." };
}

/** Better Auth's generic OAuth configuration for the configured providers. */
export function oauthProviderConfigs(env: Env): GenericOAuthConfig[] {
  const configs: GenericOAuthConfig[] = [];
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) {
    const oauth = env.GITHUB_OAUTH_URL.replace(/\/+$/, "");
    configs.push({
      providerId: "github",
      name: "GitHub",
      clientId: env.GITHUB_CLIENT_ID,
      clientSecret: env.GITHUB_CLIENT_SECRET,
      authorizationUrl: `${oauth}/login/oauth/authorize`,
      tokenUrl: `${oauth}/login/oauth/access_token`,
      scopes: ["read:user", "user:email"],
      pkce: true,
      getUserInfo: async (tokens) =>
        tokens.accessToken ? gitHubUserInfo(env.GITHUB_API_URL, tokens.accessToken) : null,
    });
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    configs.push({
      providerId: "google",
      name: "Google",
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      discoveryUrl: env.GOOGLE_DISCOVERY_URL,
      scopes: ["openid", "email", "profile"],
      pkce: true,
    });
  }
  return configs;
}

/**
 * The origins the "Sign in with …" forms end up at (the provider's authorization page, reached by
 * a redirect from /login/oauth): the Content-Security-Policy's form-action must allow them.
 */
export function oauthFormOrigins(env: Env): string[] {
  const origins: string[] = [];
  for (const provider of configuredOAuthProviders(env)) {
    origins.push(new URL(provider === "github" ? env.GITHUB_OAUTH_URL : env.GOOGLE_DISCOVERY_URL).origin);
  }
  return [...new Set(origins)];
}
