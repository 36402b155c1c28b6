/**
 * Invitation rules of a team (decision 0047), pure: the addresses typed in, an invitation's state at a
 * moment, and the accept page's path.
 */

export const INVITATION_DAYS = 7;
export const MAX_ADDRESSES = 100;

export const INVITATION_ERRORS = {
  badAddress: (address: string) => `"${address}" is not an e-mail address.`,
  tooManyAddresses: `Invite at most ${MAX_ADDRESSES} addresses at once.`,
  hasSeat: (address: string) => `${address} already has a seat in this team.`,
  alreadyInvited: (address: string) => `${address} is already invited: resend the invitation instead.`,
  unknown: "This invitation link is not valid.",
  expired: "This invitation has expired. Ask the team for a new one.",
  withdrawn: "This invitation was withdrawn.",
  accepted: "This invitation was already accepted.",
  wrongAddress: (address: string) => `This invitation is for ${address}. Log in with that address to accept it.`,
  unconfirmed: "Confirm your e-mail address first, then accept the invitation.",
  notPending: "Only an open invitation can be withdrawn.",
  alreadySeated: "You already have a seat in this team.",
  ownerGone:
    "This team takes no new members: its owner closed their account, and the team ends when its subscription does.",
} as const;

/**
 * Resending sends an e-mail to whatever address was invited: one person may resend one invitation
 * `perInvitation` times, and invitations in all `perPerson` times, in `windowMinutes`.
 */
export const RESEND_LIMITS = { perInvitation: 3, perPerson: 20, windowMinutes: 10 } as const;

/** The refusal of a resend over RESEND_LIMITS, with the whole minutes until the next one is possible. */
export const resendLimited = (minutes: number) =>
  `Invitations were resent too often just now. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/**
 * The addresses in what was typed (separated by commas, semicolons, spaces or lines), lower-case
 * and each once; or the first problem's text.
 */
export function parseAddresses(
  input: string | readonly string[],
): { ok: true; emails: string[] } | { ok: false; error: string } {
  const parts = (typeof input === "string" ? input.split(/[\s,;]+/) : input.flatMap((s) => s.split(/[\s,;]+/)))
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  const emails = [...new Set(parts)];
  if (emails.length > MAX_ADDRESSES) return { ok: false, error: INVITATION_ERRORS.tooManyAddresses };
  const bad = emails.find((email) => email.length > 254 || !EMAIL.test(email));
  if (bad) return { ok: false, error: INVITATION_ERRORS.badAddress(bad.slice(0, 80)) };
  return { ok: true, emails };
}

export type InvitationState = "open" | "expired" | "withdrawn" | "accepted";

/** An invitation's state now: pending until its expiry, then expired. */
export function invitationState(
  invitation: { status: "pending" | "accepted" | "withdrawn"; expires_at: Date },
  now: Date,
): InvitationState {
  if (invitation.status !== "pending") return invitation.status;
  return invitation.expires_at > now ? "open" : "expired";
}

/** When an invitation sent now stops working. */
export function invitationExpiry(now: Date): Date {
  return new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
}

/**
 * The accept page's path for an invitation's token (the e-mail links to it). The token is in the
 * query: the request log writes paths, never queries, so the one-time token is never logged.
 */
export function invitationPath(token: string): string {
  return `/team/invitation?token=${encodeURIComponent(token)}`;
}

/** The invitation token of a return address that leads to an invitation's accept page, or null (/register names the team). */
export function invitationTokenOf(returnTo: string | null | undefined): string | null {
  if (!returnTo?.startsWith("/team/invitation?")) return null;
  const token = new URL(returnTo, "http://site.invalid").searchParams.get("token");
  return token && token.length <= 200 ? token : null;
}

/** /register reached from an invitation: "Join <team>", and the form starts with the invited address. */
export const joinTeamTitle = (teamName: string) => `Join ${teamName}`;

/** The domain of an address, lower-case ("a@Example.com" → "example.com"). */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/** What a team's default name is read from: the owner's billing details and profile. */
export interface TeamOwnerNames {
  /** The name on the owner's invoices (billing details), usually the business's. */
  billingName?: string | null;
  companyName?: string | null;
  fullName?: string | null;
  email: string;
}

const oneLine = (value: string | null | undefined) => (value ?? "").trim().replace(/\s+/g, " ");

/**
 * The team's name as given, else the owner's company (the billing details' name, else the
 * profile's company), else the owner's full name; the address's local part only when the account has
 * no name at all. Never "<name>'s team": the e-mails say "the <name> team" ("the tom's team team").
 * The owner may rename it later.
 */
export function defaultTeamName(name: string | null | undefined, owner: TeamOwnerNames): string {
  for (const candidate of [name, owner.billingName, owner.companyName, owner.fullName]) {
    const typed = oneLine(candidate);
    if (typed) return typed.slice(0, 100);
  }
  const at = owner.email.indexOf("@");
  return owner.email.slice(0, at > 0 ? at : owner.email.length).slice(0, 100);
}
