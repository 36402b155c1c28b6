import { z } from "zod";

/**
 * API tokens for the vendor's systems (decision 0039): scopes, expiry and the answers a
 * request gets when its token cannot do what it asks. Tokens work on /api/v1 only, sent as
 * `Authorization: Bearer <token>`; never from a cookie, never on the site's pages.
 */

export const API_TOKEN_SCOPES = ["releases:write", "licenses:read", "events:read"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every token starts so, which tells it apart from other secrets (e.g. in a leaked log). */
export const API_TOKEN_PREFIX = "fkt_";
/** How much of the token the list shows. */
export const TOKEN_PREFIX_SHOWN = API_TOKEN_PREFIX.length + 6;
const TOKEN_SHAPE = /^fkt_[A-Za-z0-9_-]{43}$/;

export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const TOKEN_MAX_DAYS = 365;

export function isScope(input: unknown): input is ApiTokenScope {
  return (API_TOKEN_SCOPES as readonly unknown[]).includes(input);
}

/** Scopes as given: at least one, each known (the unknown ones named), without repeats. */
export function parseScopes(
  input: unknown[],
): { scopes: ApiTokenScope[]; error: null } | { scopes: null; error: string } {
  const unknown = input.filter((scope) => !isScope(scope)).map(String);
  if (unknown.length > 0) {
    return { scopes: null, error: `Unknown scope ${unknown.join(", ")}: use ${API_TOKEN_SCOPES.join(", ")}.` };
  }
  if (input.length === 0) return { scopes: null, error: "Choose at least one scope." };
  return { scopes: API_TOKEN_SCOPES.filter((scope) => input.includes(scope)), error: null };
}

/** The admin page's form: a name, the scopes and the days until it expires. */
export const tokenFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: "Enter a name that says where the token is used." })
    .max(100, { message: "Use at most 100 characters." }),
  scopes: z.array(z.string()).transform((given, ctx) => {
    const parsed = parseScopes(given);
    if (parsed.error !== null) {
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    return parsed.scopes;
  }),
  expires_in_days: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, { message: `Choose an expiry from 1 to ${TOKEN_MAX_DAYS} days.` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { message: `Choose an expiry from 1 to ${TOKEN_MAX_DAYS} days.` })
        .max(TOKEN_MAX_DAYS, { message: `Choose an expiry from 1 to ${TOKEN_MAX_DAYS} days.` }),
    ),
});
export type TokenForm = z.output<typeof tokenFormSchema>;

/** The Bearer token of an Authorization header, or null when the header is missing or not Bearer. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match ? match[1]! : null;
}

export function isTokenShaped(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

export type TokenStatus = "active" | "expired" | "revoked";

export function tokenStatus(token: { expires_at: Date; revoked_at: Date | null }, now: Date): TokenStatus {
  if (token.revoked_at) return "revoked";
  return token.expires_at.getTime() <= now.getTime() ? "expired" : "active";
}

export type TokenRefusalCode = "token_missing" | "token_invalid" | "token_expired" | "token_revoked" | "scope_missing";

export interface TokenRefusal {
  status: 401 | 403;
  code: TokenRefusalCode;
  error: string;
}

export const TOKEN_REFUSALS: Record<Exclude<TokenRefusalCode, "scope_missing">, TokenRefusal> = {
  token_missing: {
    status: 401,
    code: "token_missing",
    error: "This address needs an API token: send it as Authorization: Bearer <token>.",
  },
  token_invalid: { status: 401, code: "token_invalid", error: "The API token is not valid." },
  token_expired: { status: 401, code: "token_expired", error: "The API token has expired." },
  token_revoked: { status: 401, code: "token_revoked", error: "The API token was revoked." },
};

/** Whether a found token may do what a request needs: null, or the refusal to answer. */
export function refuseToken(
  token: { expires_at: Date; revoked_at: Date | null; scopes: string[] },
  scope: ApiTokenScope,
  now: Date,
): TokenRefusal | null {
  const status = tokenStatus(token, now);
  if (status !== "active") return TOKEN_REFUSALS[status === "revoked" ? "token_revoked" : "token_expired"];
  if (!token.scopes.includes(scope)) {
    return { status: 403, code: "scope_missing", error: `The API token lacks the scope ${scope}.` };
  }
  return null;
}
