import { emailOnlySchema } from "./auth-schemas";

/**
 * The support back office's actions on a customer (decision 0038): their intents, the reason every
 * write requires, the new address of an e-mail change, and the texts the admin sees.
 */

export const SUPPORT_INTENTS = [
  "support-cancel-renewal",
  "support-reenable-renewal",
  "support-change-email",
  "support-resend-confirmation",
  "support-reset-two-factor",
] as const;
export type SupportIntent = (typeof SUPPORT_INTENTS)[number];

export function isSupportIntent(value: unknown): value is SupportIntent {
  return typeof value === "string" && (SUPPORT_INTENTS as readonly string[]).includes(value);
}

export const SUPPORT_REASON_MAX = 500;

export const SUPPORT_TEXTS = {
  reasonRequired: "Enter the reason (what the customer asked, how you checked it).",
  reasonTooLong: `Use at most ${SUPPORT_REASON_MAX} characters for the reason.`,
  emailSame: "This is already the customer's e-mail address.",
  emailInUse: "This e-mail address is already in use by another account.",
  alreadyConfirmed: "This account's e-mail address is already confirmed.",
  twoFactorOff: "Two-factor authentication is not on for this account.",
  twoFactorAdmin: "An administrator's two-factor authentication cannot be reset here.",
  renewalOff: "Automatic renewal is already off for this license.",
  noCancellation: "This license has no cancellation to undo.",
  userNotFound: "User not found",
  failed: "The action failed. Nothing was changed.",
} as const;

export const SUPPORT_TOASTS = {
  renewalCancelled: (shortId: string) => ({
    title: "Renewal cancelled",
    description: `${shortId} will not renew; the customer was e-mailed.`,
  }),
  renewalReenabled: (shortId: string) => ({
    title: "Renewal re-enabled",
    description: `${shortId} renews again; the customer was e-mailed.`,
  }),
  emailChanged: (email: string, immediate: boolean) => ({
    title: immediate ? "E-mail address changed" : "E-mail change started",
    description: immediate
      ? `The account now uses ${email}; a confirmation link went there and a notice to the old address.`
      : `A confirmation link went to ${email}; the change takes effect when it is followed. The old address was told.`,
  }),
  confirmationResent: (email: string) => ({ title: "Confirmation e-mail sent", description: `Sent to ${email}.` }),
  twoFactorReset: {
    title: "Two-factor authentication reset",
    description: "The customer signs in with the password alone until they turn it on again; they were e-mailed.",
  },
} as const;

/** The reason a support write requires: trimmed, not empty, at most SUPPORT_REASON_MAX characters. */
export function parseSupportReason(input: unknown): { reason: string; error: null } | { reason: null; error: string } {
  const reason = typeof input === "string" ? input.trim() : "";
  if (reason === "") return { reason: null, error: SUPPORT_TEXTS.reasonRequired };
  if (reason.length > SUPPORT_REASON_MAX) return { reason: null, error: SUPPORT_TEXTS.reasonTooLong };
  return { reason, error: null };
}

/** The new address of an e-mail change, checked as registration checks one, lower-cased. */
export function parseNewEmail(input: unknown): { email: string; error: null } | { email: null; error: string } {
  const parsed = emailOnlySchema.safeParse({ email: typeof input === "string" ? input : "" });
  if (!parsed.success)
    return { email: null, error: parsed.error.issues[0]?.message ?? "Enter a valid e-mail address." };
  return { email: parsed.data.email.toLowerCase(), error: null };
}
