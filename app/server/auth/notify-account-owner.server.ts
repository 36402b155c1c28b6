import { and, eq, ne } from "drizzle-orm";
import {
  accountDeletedEmail,
  passwordChangedEmail,
  providerConnectedEmail,
  type CancelledSubscription,
} from "~/emails/account-notices.server";
import {
  recoveryCodesRegeneratedEmail,
  recoveryCodeUsedEmail,
  twoFactorDisabledEmail,
  twoFactorEnabledEmail,
} from "~/emails/two-factor-notices.server";
import type { EmailMessage } from "~/emails/layout.server";
import { getDb } from "../db/db.server";
import { accounts } from "../db/schema";
import { queueMail } from "../mail/outbox.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";
import { OAUTH_PROVIDER_NAMES, isOAuthProviderId } from "./oauth-providers.server";

/**
 * The notices an account's owner gets when something changes on the account (templates in
 * app/emails/account-notices.server.tsx and two-factor-notices.server.tsx). Queued, never awaited:
 * the request answers first.
 */

export function notifyPasswordChanged(user: { email: string; fullName: string }): void {
  queueMail(() => passwordChangedEmail(mailBrand(), user.email, user.fullName), "password change notice");
}

/** The deletion's confirmation, to the former address, naming the subscriptions it cancelled. */
export function notifyAccountDeleted(formerEmail: string, name: string, cancelled: CancelledSubscription[]): void {
  queueMail(() => accountDeletedEmail(mailBrand(), formerEmail, name, cancelled), "account deletion confirmation");
}

/** Composes an e-mail to the account's owner (address and name as they are when it is sent). */
function queueToOwner(
  userId: string,
  what: string,
  make: (owner: { email: string; name: string }) => Promise<EmailMessage>,
): void {
  queueMail(async () => {
    const owner = await recipientOf(userId);
    return owner ? make(owner) : null;
  }, what);
}

/** Two-factor authentication was turned on or off (decision 0026); the time is the change's, not the send's. */
export function notifyTwoFactorChanged(userId: string, on: boolean): void {
  const at = new Date();
  const email = on ? twoFactorEnabledEmail : twoFactorDisabledEmail;
  queueToOwner(userId, `two-factor ${on ? "on" : "off"} notice`, (o) => email(mailBrand(), o.email, o.name, at));
}

/** A recovery code signed in; `left` is counted right after it was used up. */
export function notifyRecoveryCodeUsed(userId: string, ipAddress: string | null, left: number): void {
  const at = new Date();
  queueToOwner(userId, "recovery code used notice", (o) =>
    recoveryCodeUsedEmail(mailBrand(), o.email, o.name, { at, ipAddress, left }),
  );
}

/** New recovery codes replaced the old ones. */
export function notifyRecoveryCodesRegenerated(userId: string): void {
  const at = new Date();
  queueToOwner(userId, "new recovery codes notice", (o) =>
    recoveryCodesRegeneratedEmail(mailBrand(), o.email, o.name, at),
  );
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
