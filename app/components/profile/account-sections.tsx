import type { AccountOverview } from "~/domain/account-views";
import { ConnectedAccountsSection } from "./connected-accounts-section";
import { DataSection } from "./data-section";
import { PasswordSection } from "./password-section";
import { SessionsSection } from "./sessions-section";
import { TwoFactorSection } from "./two-factor-section";

/** The profile's account sections below "Your details", each in its own card and component. */
export function AccountSections({ account }: { account: AccountOverview }) {
  return (
    <div className="mt-8 flex flex-col gap-8">
      <TwoFactorSection account={account} />
      {account.hasPassword ? <PasswordSection /> : null}
      <SessionsSection sessions={account.sessions} />
      {account.providers.length > 0 || account.connected.length > 0 ? (
        <ConnectedAccountsSection providers={account.providers} connected={account.connected} />
      ) : null}
      <DataSection hasPassword={account.hasPassword} subscriptions={account.subscriptionsToCancel} />
    </div>
  );
}
