import { z } from "zod";
import { ACCOUNT_TEXTS as A } from "./account-texts";
import { AUTH_TEXTS as T } from "./auth-texts";
import { PASSWORD_MAX, PASSWORD_MIN } from "./auth-schemas";
import { normalizeRecoveryCode } from "./recovery-codes";

/** Form schemas of the account sections, shared by the browser and the server. */

const currentPassword = z
  .string({ error: T.passwordRequired })
  .min(1, T.passwordRequired)
  .max(PASSWORD_MAX, T.passwordTooLong);

/** Six digits; spaces people copy along are dropped. */
export const totpCode = z
  .string({ error: A.codeRequired })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(
    z
      .string()
      .min(1, A.codeRequired)
      .regex(/^\d{6}$/, A.codeRequired),
  );

/** What the sign-in's second step accepts: an authenticator code or a recovery code. */
export type SecondFactor = { kind: "totp"; code: string } | { kind: "recovery"; code: string };

/**
 * Reads a typed second factor: 6 digits, or a recovery code in any case, with or without its dash
 * (or a space in its place), written as the profile shows it ("7KQ4M-XW9TP").
 */
export function parseSecondFactor(input: string): SecondFactor | null {
  const value = input.replace(/\s+/g, "");
  if (/^\d{6}$/.test(value)) return { kind: "totp", code: value };
  const recovery = normalizeRecoveryCode(input);
  return recovery ? { kind: "recovery", code: recovery } : null;
}

export const signInCodeSchema = z.object({
  code: z
    .string({ error: A.codeRequired })
    .refine((value) => value.trim().length > 0, A.codeRequired)
    .refine((value) => value.trim().length === 0 || parseSecondFactor(value) !== null, A.codeInvalidFormat),
  redirectTo: z.string().optional(),
});

export const passwordOnlySchema = z.object({ password: currentPassword });
export const codeOnlySchema = z.object({ code: totpCode });
export const disableTwoFactorSchema = z.object({ password: currentPassword, code: totpCode });

export const changePasswordSchema = z
  .object({
    currentPassword,
    newPassword: z
      .string({ error: T.passwordTooShort })
      .min(PASSWORD_MIN, T.passwordTooShort)
      .max(PASSWORD_MAX, T.passwordTooLong),
    confirm: z.string({ error: T.passwordMismatch }),
  })
  .refine((value) => value.newPassword === value.confirm, { path: ["confirm"], message: T.passwordMismatch })
  .refine((value) => value.newPassword !== value.currentPassword, { path: ["newPassword"], message: A.passwordSame });

export const revokeSessionSchema = z.object({ sessionId: z.uuid({ error: A.sessionNotFound }) });

export const deleteAccountSchema = z.object({
  password: z.string().max(PASSWORD_MAX, T.passwordTooLong).optional(),
  confirm: z
    .string({ error: A.deleteConfirmRequired })
    .trim()
    .refine((value) => value === "DELETE", A.deleteConfirmRequired),
});
