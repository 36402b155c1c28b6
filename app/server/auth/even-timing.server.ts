/**
 * The least time the account-dependent part of an answer takes, whatever the address. Register,
 * resend confirmation and forgot-password already do the same work on both paths (both hash the
 * password, e-mail leaves after the answer); what is left (a few inserts against a look-up, a
 * few milliseconds) is hidden under this floor, chosen above the slower path's usual time
 * (`npm run bench -- auth-timing` prints both paths). Decision 0014.
 */
export const MINIMUM_ANSWER_MS = {
  register: 300,
  resend: 100,
  forgot: 100,
} as const;

/** Runs `work`, then waits until at least `ms` have passed since it started (also when it throws). */
export async function takeAtLeast<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    const rest = ms - (Date.now() - started);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
}
