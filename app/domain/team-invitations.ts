/**
 * Invitation rules of a team (issue 30), pure: the addresses typed in, an invitation's state at a
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
  wrongAddress: (address: string) => `This invitation is for ${address}. Sign in with that address to accept it.`,
  unconfirmed: "Confirm your e-mail address first, then accept the invitation.",
  notPending: "Only an open invitation can be withdrawn.",
  alreadySeated: "You already have a seat in this team.",
} as const;

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

/** The accept page's path for an invitation's token (the e-mail links to it). */
export function invitationPath(token: string): string {
  return `/team/invitation/${encodeURIComponent(token)}`;
}

/** The domain of an address, lower-case ("a@Example.com" → "example.com"). */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/** The team's name as given, or "<buyer>'s team" when none was typed (the owner may rename it later). */
export function defaultTeamName(name: string | null | undefined, email: string): string {
  const typed = (name ?? "").trim().replace(/\s+/g, " ");
  if (typed) return typed.slice(0, 100);
  return `${email.slice(0, email.indexOf("@") > 0 ? email.indexOf("@") : email.length).slice(0, 80)}'s team`;
}
