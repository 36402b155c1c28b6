import { APIError } from "better-auth/api";
import { changePasswordSchema, deleteAccountSchema, revokeSessionSchema } from "~/domain/account-schemas";
import { ACCOUNT_TEXTS as A, CODE_ALREADY_USED } from "~/domain/account-texts";
import type { AccountIntent, AccountOverview } from "~/domain/account-views";
import { parseForm } from "~/lib/form";
import type { z } from "zod";
import { getEnv } from "../env.server";
import { getLogger } from "../logger.server";
import { configuredOAuthProviders } from "./oauth-providers.server";
import { isFreshSignIn, listSessions, revokeOtherSessions, revokeSession } from "./account-sessions.server";
import { connectedAccounts } from "./connected-accounts.server";
import { deleteAccount, SubscriptionCancelError, subscriptionsToCancel } from "./delete-account.server";
import { commonPasswordProblem } from "./common-passwords.server";
import { changePassword, checkPassword, hasPassword } from "./password.server";
import { withClientIp } from "./auth.server";
import { hitRateLimit, RATE_LIMIT_MESSAGE } from "./rate-limit.server";
import { getCurrentSession, type SessionUser } from "./session.server";
import { refuse, renewed, reply, type AccountReply } from "./account-replies.server";
import { recoveryCodesLeft } from "./recovery-codes.server";
import { TWO_FACTOR_INTENTS, twoFactorAction, type TwoFactorIntent } from "./two-factor-actions.server";
import { announceSessionChange } from "../cache/caches.server";

export const ACCOUNT_INTENTS: readonly AccountIntent[] = [
  ...TWO_FACTOR_INTENTS,
  "password-change",
  "session-revoke",
  "sessions-revoke-others",
  "account-delete",
];

function isAccountIntent(value: unknown): value is AccountIntent {
  return typeof value === "string" && (ACCOUNT_INTENTS as readonly string[]).includes(value);
}

const isTwoFactorIntent = (intent: AccountIntent): intent is TwoFactorIntent =>
  (TWO_FACTOR_INTENTS as readonly string[]).includes(intent);

/** Per-action limits: a few tries a minute per user and per client address. */
const LIMITS: Record<AccountIntent, number> = {
  "two-factor-start": 10,
  "two-factor-confirm": 10,
  "two-factor-disable": 10,
  "recovery-codes-regenerate": 10,
  "password-change": 10,
  "session-revoke": 30,
  "sessions-revoke-others": 10,
  "account-delete": 5,
};

/**
 * The profile page's account actions, told apart by the form's `intent` (the form as the route read
 * it). Null when the form is not one of them (the profile's own "Save changes"). Every one checks the
 * session, has its own rate limit and answers bad input with a message and a 4xx; the answer is a
 * value the route turns into HTTP.
 */
export async function accountAction(
  form: FormData,
  request: Request,
  clientIp: string,
  user: SessionUser,
): Promise<AccountReply | null> {
  const intent = form.get("intent");
  if (!isAccountIntent(intent)) return null;

  const limit = await hitRateLimit([`${intent}:user:${user.id}`, `${intent}:ip:${clientIp}`], {
    attempts: LIMITS[intent],
  });
  if (limit.limited) {
    return reply(
      intent,
      429,
      {
        toast: { title: "Too many attempts", description: RATE_LIMIT_MESSAGE, variant: "destructive" },
        fieldErrors: { form: [RATE_LIMIT_MESSAGE] },
      },
      { "Retry-After": String(limit.retryAfter) },
    );
  }
  // Better Auth's calls that make a new session record the client address the server determined.
  const req = new Request(request.url, { headers: withClientIp(request.headers, clientIp) });
  try {
    return await runAccountIntent(intent, form, request, req, user);
  } catch (error) {
    return answerAccountError(intent, error);
  }
}

/** One account action, once it passed the rate limit; `req` carries the client address for Better Auth. */
async function runAccountIntent(
  intent: AccountIntent,
  form: FormData,
  request: Request,
  req: Request,
  user: SessionUser,
): Promise<AccountReply> {
  const parse = <S extends z.ZodType>(schema: S) => parseForm(schema, form);
  if (isTwoFactorIntent(intent)) return await twoFactorAction(intent, form, request, req, user);
  switch (intent) {
    case "password-change": {
      const parsed = parse(changePasswordSchema);
      if (!parsed.success) return reply(intent, 400, { fieldErrors: parsed.fieldErrors });
      const common = commonPasswordProblem(parsed.data.newPassword);
      if (common) return reply(intent, 400, { fieldErrors: { newPassword: [common] } });
      const headers = await changePassword(req, user, parsed.data.currentPassword, parsed.data.newPassword);
      await announceSessionChange(user.id);
      const toast = {
        title: A.passwordChanged,
        description: A.passwordChangedDescription,
        variant: "success" as const,
      };
      return renewed(request, intent, toast, headers, "password");
    }
    case "session-revoke": {
      const parsed = parse(revokeSessionSchema);
      if (!parsed.success) return refuse(intent, 400, A.sessionNotFound, A.sessionNotFound);
      if (!(await revokeSession(req, user.id, parsed.data.sessionId))) {
        return refuse(intent, 404, A.sessionNotFound, A.sessionNotFound);
      }
      return reply(intent, 200, { toast: { title: A.sessionEnded, variant: "success" } });
    }
    case "sessions-revoke-others": {
      await revokeOtherSessions(req);
      await announceSessionChange(user.id);
      return reply(intent, 200, { toast: { title: A.otherSessionsEnded, variant: "success" } });
    }
    case "account-delete":
      return await deleteAccountAction(form, request, req, user);
  }
}

/** Deleting the account: the password again (or, without one, a fresh sign-in), then the cookies go too. */
async function deleteAccountAction(
  form: FormData,
  request: Request,
  req: Request,
  user: SessionUser,
): Promise<AccountReply> {
  const parsed = parseForm(deleteAccountSchema, form);
  if (!parsed.success) return reply("account-delete", 400, { fieldErrors: parsed.fieldErrors });
  if (await hasPassword(user.id)) {
    if (!parsed.data.password || !(await checkPassword(user.id, parsed.data.password))) {
      return refuse("account-delete", 403, A.deleteFailed, A.passwordWrong, "password");
    }
  } else if (!(await isFreshSignIn(req))) {
    return refuse("account-delete", 403, A.deleteFailed, A.deleteFreshSignIn);
  }
  await deleteAccount(user.id);
  const { headers } = await getCurrentSession(request);
  return {
    kind: "redirect",
    to: "/",
    toast: {
      title: A.accountDeleted,
      description: "We sent a confirmation to your e-mail address.",
      variant: "success",
    },
    status: 302,
    headers: expireSessionCookies(req, headers),
  };
}

/** A refused or failed account action as the page shows it: the field, the message and a 4xx (500 if unknown). */
function answerAccountError(intent: AccountIntent, error: unknown): AccountReply {
  if (error instanceof SubscriptionCancelError) {
    getLogger().error({ err: error.cause }, "account deletion: subscription cancel failed");
    return refuse(
      intent,
      503,
      A.deleteFailed,
      "Your subscriptions could not be cancelled with the payment provider right now, so nothing was deleted. Please try again later.",
    );
  }
  if (error instanceof APIError) {
    const code = error.body?.code;
    if (code === "INVALID_PASSWORD") {
      const field = intent === "password-change" ? "currentPassword" : "password";
      const title = intent === "recovery-codes-regenerate" ? A.recoveryCodesFailed : A.twoFactorFailed;
      return refuse(intent, 403, title, A.passwordWrong, field);
    }
    if (code === "INVALID_CODE") return refuse(intent, 403, A.twoFactorFailed, A.codeWrong, "code");
    if (code === CODE_ALREADY_USED) return refuse(intent, 403, A.twoFactorFailed, A.codeUsed, "code");
    if (code === "TOTP_ALREADY_ENABLED") return refuse(intent, 409, A.twoFactorFailed, "Two-factor is already on.");
    if (code === "TWO_FACTOR_NOT_ENABLED") return refuse(intent, 409, A.recoveryCodesFailed, A.twoFactorIsOff);
    if (code === "TOTP_NOT_ENABLED") {
      return refuse(intent, 409, A.twoFactorFailed, "Start the set-up again: enter your password first.");
    }
    if (error.statusCode === 401) return refuse(intent, 401, A.unexpected, "Please log in again.");
    const status = error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    return refuse(intent, status, A.unexpected, error.body?.message || A.unexpected);
  }
  getLogger().error({ err: error, intent }, "account action failed");
  return refuse(intent, 500, A.unexpected, A.unexpected);
}

/** Clears the session cookies of a deleted account (the sessions are gone already). */
function expireSessionCookies(request: Request, from: Headers): Headers {
  const headers = new Headers(from);
  const cookie = request.headers.get("Cookie") ?? "";
  for (const part of cookie.split(";")) {
    const name = part.split("=")[0]?.trim();
    if (name && /session_(token|data)$/.test(name)) {
      const secure = name.startsWith("__Secure-") ? "; Secure" : "";
      headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
    }
  }
  return headers;
}

/** What the profile's account sections show: two-factor state, sessions, providers, password or not. */
export async function accountOverview(request: Request, user: SessionUser): Promise<AccountOverview> {
  const { role, twoFactorEnabled } = await getCurrentSession(request);
  const url = new URL(request.url);
  // Independent reads, side by side rather than one after the other.
  const [codesLeft, passwordSet, sessions, connected, toCancel] = await Promise.all([
    twoFactorEnabled ? recoveryCodesLeft(user.id) : null,
    hasPassword(user.id),
    listSessions(request, user.id),
    connectedAccounts(user.id),
    subscriptionsToCancel(user.id),
  ]);
  return {
    isAdmin: role === "admin",
    twoFactorEnabled,
    recoveryCodesLeft: codesLeft,
    twoFactorRequired: role === "admin" && !twoFactorEnabled && url.searchParams.get("two-factor") === "required",
    hasPassword: passwordSet,
    sessions,
    connected,
    providers: configuredOAuthProviders(getEnv()),
    subscriptionsToCancel: toCancel,
  };
}
