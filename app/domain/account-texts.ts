/** The account sections' texts (two-factor, password, sessions, deletion, export, OAuth), for UI and tests. */
export const ACCOUNT_TEXTS = {
  codeRequired: "Enter the 6-digit code from your authenticator app.",
  codeInvalidFormat: "Enter the 6-digit code from your app, or a recovery code like abcde-12345.",
  codeWrong: "That code is not correct. Try the current code from your app.",
  twoFactorTitle: "Two-step verification",
  twoFactorFailed: "Two-step verification failed",
  twoFactorExpired: "Your sign-in waited too long for its code. Please log in again.",
  twoFactorSetupStarted: "Scan the QR code, then enter the code your app shows.",
  twoFactorEnabled: "Two-factor authentication is on",
  twoFactorDisabled: "Two-factor authentication is off",
  twoFactorAdminRequired: "Administrators cannot turn off two-factor authentication.",
  passwordWrong: "The password is not correct.",
  passwordChanged: "Password changed",
  passwordChangedDescription: "Your other sessions were signed out and we sent you an e-mail about the change.",
  passwordSame: "Choose a password different from the current one.",
  sessionEnded: "Session signed out",
  otherSessionsEnded: "Signed out everywhere else",
  sessionNotFound: "That session no longer exists.",
  deleteConfirmRequired: "Type DELETE to confirm.",
  deleteFailed: "Your account could not be deleted",
  deleteFreshSignIn:
    "For your security, sign in again with your provider, then delete the account within five minutes.",
  accountDeleted: "Your account was deleted",
  oauthAccountNotLinked:
    "An account with this e-mail address already exists. Log in with your password, then connect the provider on your profile.",
  oauthTwoFactor:
    "This account has two-factor authentication on: log in with your password and the code from your app.",
  oauthFailed: "Signing in with the provider did not work. Please try again.",
  oauthLinked: "Connected",
  unexpected: "Something went wrong. Please try again.",
} as const;
