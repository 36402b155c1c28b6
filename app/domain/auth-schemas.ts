import { z } from "zod";
import { AUTH_TEXTS as T } from "./auth-texts";

/** Form schemas shared by the browser (instant feedback) and the server (the real check). */

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

const email = z
  .string({ error: T.emailRequired })
  .trim()
  .min(1, T.emailRequired)
  .max(254, T.emailInvalid)
  .pipe(z.email({ error: T.emailInvalid }))
  .transform((value) => value.toLowerCase());

const newPassword = z
  .string({ error: T.passwordTooShort })
  .min(PASSWORD_MIN, T.passwordTooShort)
  .max(PASSWORD_MAX, T.passwordTooLong);

const fullName = z
  .string({ error: T.fullNameRequired })
  .trim()
  .min(1, T.fullNameRequired)
  .max(200, "Full name is too long");
const companyName = z
  .string()
  .trim()
  .max(200, "Company name is too long")
  .optional()
  .transform((value) => value || null);

export const loginSchema = z.object({
  email,
  password: z.string({ error: T.passwordRequired }).min(1, T.passwordRequired).max(PASSWORD_MAX, T.passwordTooLong),
  redirectTo: z.string().optional(),
});

export const registerSchema = z.object({
  full_name: fullName,
  email,
  password: newPassword,
  company_name: companyName,
  terms: z.literal("on", { error: T.termsRequired }),
});

export const emailOnlySchema = z.object({ email });

export const profileSchema = z.object({
  full_name: fullName,
  company_name: companyName,
  email,
});

/** A new password's problem, shown beside the field it is about (decision 0057), with the product's title and text. */
export interface NewPasswordProblem {
  field: "password" | "confirm";
  title: string;
  message: string;
}

/**
 * The reset page's two checks, in the product's order (docs/product.md, "Password reset"): the
 * passwords must match (said beside the confirmation), then be long enough (beside the new password).
 */
export function newPasswordProblem(password: string, confirm: string): NewPasswordProblem | null {
  if (password !== confirm) return { field: "confirm", title: T.passwordMismatchTitle, message: T.passwordMismatch };
  if (password.length < PASSWORD_MIN)
    return { field: "password", title: T.passwordTooShortTitle, message: T.passwordTooShort };
  if (password.length > PASSWORD_MAX)
    return { field: "password", title: T.passwordTooLongTitle, message: T.passwordTooLong };
  return null;
}
