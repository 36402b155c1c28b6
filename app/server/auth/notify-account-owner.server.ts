import { and, eq, ne } from "drizzle-orm";
import { accountDeletedEmail, passwordChangedEmail, providerConnectedEmail } from "~/emails/account-notices.server";
import { getDb } from "../db/db.server";
import { accounts } from "../db/schema";
import { queueMail } from "../mail/outbox.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";
import { OAUTH_PROVIDER_NAMES, isOAuthProviderId } from "./oauth-providers.server";

/**
 * The notices an account's owner gets when something changes on the account (templates in
 * app/emails/account-notices.server.tsx). Queued, never awaited: the request answers first.
 */

export function notifyPasswordChanged(user: { email: string; fullName: string }): void {
  queueMail(() => passwordChangedEmail(mailBrand(), user.email, user.fullName), "password change notice");
}

export function notifyAccountDeleted(formerEmail: string, name: string): void {
  queueMail(() => accountDeletedEmail(mailBrand(), formerEmail, name), "account deletion confirmation");
}

/**
 * A GitHub / Google sign-in was stored for a user (Better Auth's account-create hook). When the
 * user had another way to sign in, the provider was connected to an existing account (the
 * profile's connect flow): its owner is told which provider and when. An account that this
 * sign-in has just created gets nothing (the provider is its only sign-in).
 */
export function notifyProviderConnected(account: { id: string; userId: string; providerId: string; createdAt: Date }) {
  const provider = account.providerId;
  if (!isOAuthProviderId(provider)) return;
  queueMail(async () => {
    const others = await getDb()
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.userId, account.userId), ne(accounts.id, account.id)))
      .limit(1);
    if (others.length === 0) return null;
    const owner = await recipientOf(account.userId);
    if (!owner) return null;
    const name = OAUTH_PROVIDER_NAMES[provider];
    return providerConnectedEmail(mailBrand(), owner.email, owner.name, name, account.createdAt);
  }, "provider connected notice");
}
