import { dictionary } from "@zxcvbn-ts/language-common";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";

/**
 * The most common passwords (docs/security.md): the 49,000 of zxcvbn-ts's common-language list (MIT, from
 * leaked-password frequency lists), shipped in node_modules, never fetched. A new password that is
 * one of them, in any letter case, is refused at registration, reset, change and set. Server-only:
 * the list stays out of the browser's bundles; the browser checks only the spec's length rule.
 */
let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(dictionary.passwords.map((password) => password.toLowerCase()));
  return common;
}

/** Whether a password is one of the most common ones (letter case ignored). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** The refusal's text for a common new password, or null. */
export function commonPasswordProblem(password: string): string | null {
  return isCommonPassword(password) ? T.passwordCommon : null;
}

/** Better Auth's endpoints that take a new password, and the body field that carries it. */
const NEW_PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
  "/set-password": "newPassword",
};

/**
 * Better Auth's `hooks.before`: the same refusal on every Better Auth endpoint that takes a new
 * password, so no path (today's route actions check first, with the form's own field) or a later one
 * can store a common password. 400 with the text and code PASSWORD_COMMON.
 */
export const refuseCommonNewPasswords = createAuthMiddleware(async (ctx) => {
  const field = NEW_PASSWORD_FIELDS[ctx.path];
  const value = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : undefined;
  if (typeof value === "string" && isCommonPassword(value))
    throw new APIError("BAD_REQUEST", { message: T.passwordCommon, code: "PASSWORD_COMMON" });
});
