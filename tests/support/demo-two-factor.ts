import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { DEMO_ACCOUNTS } from "../../app/server/seed.server";

/** The current code of a seeded demo account with two-factor on (the admin), for sign-ins against a live server. */
export async function demoTwoFactorCode(email: string): Promise<string> {
  const account = DEMO_ACCOUNTS.find((a) => a.email === email.toLowerCase());
  if (!account?.twoFactorSecret)
    throw new Error(`${email} asks for a two-factor code but is not a seeded account with one`);
  return createOTP(base32.decode(account.twoFactorSecret)).totp();
}
