/**
 * The texts of changing the e-mail address and of the confirmation link (decision 0059),
 * in one place for the pages, the services and the tests.
 */

/** How long the link to the new address works. */
export const EMAIL_CHANGE_CONFIRM_HOURS = 24;
/** How long the old address can undo a change. */
export const EMAIL_CHANGE_UNDO_DAYS = 7;

export const EMAIL_CHANGE_TEXTS = {
  passwordRequired: "Enter your current password to change your e-mail address.",
  freshSignInRequired:
    "For your security, log in again with your provider, then change the e-mail address within five minutes.",
  confirmTitle: "Confirm your new e-mail address",
  confirmQuestion: (oldEmail: string, newEmail: string) =>
    `Change the e-mail address of your account from ${oldEmail} to ${newEmail}? You will log in with the new address, your other sessions end, and ${oldEmail} gets a link to undo the change for ${EMAIL_CHANGE_UNDO_DAYS} days.`,
  confirmButton: "Use the new address",
  confirmed: (newEmail: string) => `Your e-mail address is now ${newEmail}.`,
  confirmedNext: "Your other sessions were logged out.",
  undoTitle: "Undo the change of e-mail address",
  undoQuestion: (oldEmail: string, newEmail: string) =>
    `Change the e-mail address of your account back from ${newEmail} to ${oldEmail}? Every session of the account ends, on every device.`,
  undoButton: "Undo the change",
  undone: (oldEmail: string) => `Your e-mail address is ${oldEmail} again, and every session of the account has ended.`,
  undoneNext:
    "Log in with your password. If someone else may know it, choose a new one now: the reset link goes to your address.",
  unknown: "This link is not valid. Check that you opened the whole link from the e-mail.",
  used: "This link was already used.",
  expired: "This link has expired.",
  confirmAgain: "Change the address again on your profile: a new link goes to the new address.",
  undoLate: (supportEmail: string) =>
    `If you did not change your address, reset your password and write to us at ${supportEmail}.`,
  stale: "Your e-mail address changed after this link was sent, so it no longer applies.",
  taken: "This e-mail address is already in use by another account.",
  oldTaken: (supportEmail: string) =>
    `Your old address now belongs to another account, so we could not put it back. Write to us at ${supportEmail}.`,
} as const;

export const CONFIRMATION_TEXTS = {
  title: "Confirm your e-mail address",
  description: (email: string) =>
    `Log in with the password you chose when you registered ${email}: that confirms the address.`,
  signInButton: "Confirm and log in",
  setPasswordHeading: "Forgot the password, or did not create this account yourself?",
  setPasswordHint: "Choose a new password: it replaces the one chosen at registration, and confirms the address.",
  setPasswordButton: "Set password and log in",
  confirmedTitle: "E-mail address confirmed",
  confirmedDescription: "You are logged in.",
  alreadyConfirmed: "This address is already confirmed. Log in with your password.",
  invalid: "This confirmation link is not valid.",
  expired: "This confirmation link has expired. Send yourself a new one.",
} as const;
