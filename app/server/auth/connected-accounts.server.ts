import { eq } from "drizzle-orm";
import type { ConnectedAccount } from "~/domain/account-views";
import { getDb } from "../db/db.server";
import { accounts } from "../db/schema";
import { OAUTH_PROVIDER_NAMES, isOAuthProviderId } from "./oauth-providers.server";

/** The GitHub / Google sign-ins connected to the user's account. */
export async function connectedAccounts(userId: string): Promise<ConnectedAccount[]> {
  const rows = await getDb()
    .select({ providerId: accounts.providerId })
    .from(accounts)
    .where(eq(accounts.userId, userId));
  return rows
    .map((row) => row.providerId)
    .filter(isOAuthProviderId)
    .map((provider) => ({ provider, name: OAUTH_PROVIDER_NAMES[provider] }));
}
