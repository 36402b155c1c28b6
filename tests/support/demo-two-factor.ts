import { DEMO_ACCOUNTS } from "../../app/server/seed.server";

/** The base32 secret of a seeded demo account with two-factor on (the admin), for sign-ins against a live server. */
export function demoTwoFactorSecret(email: string): string {
  const account = DEMO_ACCOUNTS.find((a) => a.email === email.toLowerCase());
  if (!account?.twoFactorSecret)
    throw new Error(`${email} asks for a two-factor code but is not a seeded account with one`);
  return account.twoFactorSecret;
}
