import { formatDate } from "./format-date";

/** The account sections' texts (two-factor, password, sessions, deletion, export, OAuth), for UI and tests. */
export const ACCOUNT_TEXTS = {
  codeRequired: "Enter the 6-digit code from your authenticator app.",
  codeInvalidFormat: "Enter the 6-digit code from your app, or a recovery code like 7KQ4M-XW9TP.",
  codeWrong: "That code is not correct. Try the current code from your app.",
  recoveryCodeWrong:
    "That recovery code is not correct or was already used. Check it against your saved codes, or enter the 6-digit code from your app.",
  recoveryCodesMade: "New recovery codes made",
  recoveryCodesFailed: "New recovery codes were not made",
  twoFactorIsOff: "Two-factor authentication is off: turn it on first.",
  recoveryCodesMadeDescription:
    "Your old recovery codes no longer work. Save the new ones now: they are not shown again.",
  codeUsed: "That code was already used. Wait for the next code in your app.",
  twoFactorTitle: "Two-step verification",
  twoFactorFailed: "Two-step verification failed",
  twoFactorExpired: "Your log-in waited too long for its code. Please log in again.",
  twoFactorSetupStarted: "Scan the QR code, then enter the code your app shows.",
  twoFactorEnabled: "Two-factor authentication is on",
  twoFactorDisabled: "Two-factor authentication is off",
  twoFactorAdminRequired: "Administrators cannot turn off two-factor authentication.",
  passwordWrong: "The password is not correct.",
  passwordChanged: "Password changed",
  passwordChangedDescription: "Your other sessions were logged out and we sent you an e-mail about the change.",
  passwordSame: "Choose a password different from the current one.",
  sessionEnded: "Session logged out",
  otherSessionsEnded: "Logged out everywhere else",
  sessionNotFound: "That session no longer exists.",
  deleteConfirmRequired: "Type DELETE to confirm.",
  deleteFailed: "Your account could not be deleted",
  deleteFreshSignIn: "For your security, log in again with your provider, then delete the account within five minutes.",
  accountDeleted: "Your account was deleted",
  oauthAccountNotLinked:
    "An account with this e-mail address already exists. Log in with your password, then connect the provider on your profile.",
  oauthTwoFactor:
    "This account has two-factor authentication on: log in with your password and the code from your app.",
  oauthEmailUnverified:
    "The provider has not verified this e-mail address. Verify it there (on GitHub: make it your primary, verified address), then try again, or register with your e-mail address.",
  oauthFailed: "Logging in with the provider did not work. Please try again.",
  oauthLinked: "Connected",
  oauthConnectFailed: "The provider could not be connected. Please try again.",
  unexpected: "Something went wrong. Please try again.",
} as const;

/** The `?error=` code of a provider sign-in or connection refused because the provider has not verified the address. */
export const PROVIDER_EMAIL_UNVERIFIED = "provider_email_unverified";

/** The error code of an authenticator code that was already accepted once (each code works once). */
export const CODE_ALREADY_USED = "CODE_ALREADY_USED";

/** "Monthly team subscription for Acme": a team's subscription as the deletion page and e-mail name it. */
export function teamSubscriptionName(planLabel: string, teamName: string): string {
  return `${planLabel} team subscription for ${teamName}`;
}

/** What happens to a team's members when its owner's account is deleted (decision 0049). */
export function teamMembersKeepSeats(members: number, renewsOn: string | Date): string {
  if (members === 0) return `no other member holds a seat; the team ends on ${formatDate(renewsOn)}`;
  const who = members === 1 ? "its 1 member keeps their seat" : `its ${members} members keep their seats`;
  return `${who} until ${formatDate(renewsOn)}, then the team ends`;
}
