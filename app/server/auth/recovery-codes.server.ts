import { APIError } from "better-auth/api";
import { normalizeRecoveryCode } from "~/domain/recovery-codes";
import { getAuth } from "./auth.server";
import { notifyRecoveryCodesRegenerated } from "./notify-account-owner.server";

/**
 * The account's recovery codes as Better Auth stores them (encrypted in two_factors.backup_codes),
 * read through its server-only `viewBackupCodes`. Null when the account has no two-factor.
 */
async function storedRecoveryCodes(userId: string): Promise<string[] | null> {
  try {
    const result = await getAuth().api.viewBackupCodes({ body: { userId } });
    return Array.isArray(result.backupCodes) ? result.backupCodes.map(String) : null;
  } catch (error) {
    if (error instanceof APIError) return null;
    throw error;
  }
}

/** How many unused recovery codes the account has; null without two-factor. */
export async function recoveryCodesLeft(userId: string): Promise<number | null> {
  return (await storedRecoveryCodes(userId))?.length ?? null;
}

/**
 * The stored code a person meant by what they typed: Better Auth compares codes exactly, so a code
 * typed in another case or without its dash is matched here first (codes made before decision 0026's addendum mix
 * cases). A code that matches none is returned as normalised, for Better Auth to refuse and count.
 */
export async function storedFormOf(userId: string, typed: string): Promise<string> {
  const wanted = normalizeRecoveryCode(typed) ?? typed;
  const stored = (await storedRecoveryCodes(userId)) ?? [];
  return stored.find((code) => normalizeRecoveryCode(code) === wanted) ?? wanted;
}

/**
 * "Generate new codes": the password is checked by Better Auth, which replaces the stored codes in
 * one update (the old ones stop working at once). The owner is told by e-mail.
 */
export async function regenerateRecoveryCodes(request: Request, userId: string, password: string): Promise<string[]> {
  const result = await getAuth().api.generateBackupCodes({ body: { password }, headers: request.headers });
  notifyRecoveryCodesRegenerated(userId);
  return result.backupCodes;
}
