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
 * The code an authenticator app shows that this process has not used yet, now that each code works
 * once (issue 22): the current code, or the next one if the current one was used (the site accepts
 * one step ahead); when both were used, it waits for the app's next code.
 */
export async function nextCode(base32Secret: string): Promise<string> {
  for (;;) {
    const now = currentStep();
    const step = Math.max(now, (lastUsed.get(base32Secret) ?? -Infinity) + 1);
    if (step <= now + 1) {
      lastUsed.set(base32Secret, step);
      return codeAtStep(base32Secret, step);
    }
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * TOTP_PERIOD_MS - Date.now() + 200));
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
