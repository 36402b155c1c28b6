import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";

/** The site's TOTP period; it accepts the code of the step before and after the current one too. */
export const TOTP_PERIOD_MS = 30_000;

export const currentStep = () => Math.floor(Date.now() / TOTP_PERIOD_MS);

/** The 6-digit code of a base32 secret at a time-step, as an authenticator app shows it then. */
export async function codeAtStep(base32Secret: string, step: number): Promise<string> {
  return createOTP(base32.decode(base32Secret.toUpperCase())).hotp(step);
}

const lastUsed = new Map<string, number>();

/**
 * A code the site accepts now that this process has not used yet, now that each code works once
 * (docs/security.md). The site accepts the previous, current and next step's code, and each step only after
 * the last one used: so the previous code (while it has more than five seconds left), the current
 * one and the next one, in that order, give three sign-ins at once; then it waits for the app's
 * next code, as a person would.
 */
export async function nextCode(base32Secret: string): Promise<string> {
  for (;;) {
    const now = currentStep();
    const left = (now + 1) * TOTP_PERIOD_MS - Date.now();
    const last = lastUsed.get(base32Secret) ?? -Infinity;
    const step = [left > 5_000 ? now - 1 : now, now, now + 1].find((candidate) => candidate > last);
    if (step !== undefined) {
      lastUsed.set(base32Secret, step);
      return codeAtStep(base32Secret, step);
    }
    await new Promise((resolve) => setTimeout(resolve, left + 200));
  }
}

/**
 * Submits codes as a person would: the next unused one (nextCode), and when the site refuses it
 * (another process used it; `submit` returns null), the one after.
 */
export async function withUnusedCode<T>(base32Secret: string, submit: (code: string) => Promise<T | null>): Promise<T> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const result = await submit(await nextCode(base32Secret));
    if (result !== null) return result;
  }
  throw new Error("no unused two-factor code was accepted");
}
