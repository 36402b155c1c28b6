import type { PlanSwitchOption } from "./plan-switch";
import { formatPrice } from "./billing";

/**
 * What the /team page shows (decision 0047), as plain data from its loader: the team, its seats, members
 * and open invitations, the viewer's role; and the page's texts (the toasts and confirmations).
 * The rules of who may do what are the teams service's (team-roles.ts); the page only hides what
 * the server would refuse.
 */

export type TeamRoleView = "owner" | "manager" | "member";

export interface TeamSeatsView {
  paid: number;
  assigned: number;
  pending: number;
  nextRenewal: number | null;
  free: number;
  invitable: number;
}

export interface TeamMemberView {
  userId: string;
  name: string;
  email: string;
  role: TeamRoleView;
  seatLicenseId: string | null;
  seatShortId: string | null;
  since: string;
}

export interface TeamInvitationView {
  id: string;
  email: string;
  state: "open" | "expired" | "withdrawn" | "accepted";
  expiresAt: string;
  createdAt: string;
}

export interface TeamView {
  id: string;
  name: string;
  planType: string;
  viewerRole: TeamRoleView;
  seats: TeamSeatsView;
  domainClaim: boolean;
  domain: string | null;
  subscription: {
    licenseId: string;
    state: string;
    label: string;
    endDate: string;
    active: boolean;
    /**
     * The renewal's payment failed (decision 0023): the provider refuses seat changes until it is paid;
     * `graceEnd` is when the team's licenses stop working (null: already over). Null while paid up.
     */
    overdue: { graceEnd: string | null } | null;
    /**
     * Its owner's plan change (decision 0074): the plans offered, else why none (null: offered), and
     * a shorter plan waiting for the next renewal.
     */
    plan: { options: PlanSwitchOption[]; refusal: string | null; nextRenewal: string | null };
  } | null;
  members: TeamMemberView[];
  invitations: TeamInvitationView[];
}

/** What a seat change will do and cost, as the owner confirms it. */
export interface SeatQuoteView {
  effect: "now" | "next-renewal" | "cancel-reduction";
  seats: number;
  dueNowCents: number | null;
  renewalCents: number | null;
  /** The team's subscription's currency (decision 0072); US dollars when absent. */
  currency?: string;
  renewsAt: string;
}

/** "3 of 5 seats used · 1 invited · 1 free". */
export function seatsLine(seats: TeamSeatsView): string {
  const parts = [`${seats.assigned} of ${seats.paid} seats used`];
  if (seats.pending > 0) parts.push(`${seats.pending} invited`);
  parts.push(`${seats.invitable} free`);
  return parts.join(" · ");
}

/**
 * The confirmation of a seat change: what happens and what it costs, in the team's currency. An amount not
 * known in that currency (a team bought before its seats were recorded) is left out, not guessed.
 */
export function seatQuoteText(quote: SeatQuoteView, renewsOn: string): string {
  const money = (cents: number | null) => (cents === null ? null : formatPrice(cents, quote.currency ?? "USD"));
  const now = money(quote.dueNowCents);
  const renewal = money(quote.renewalCents);
  if (quote.effect === "now")
    return now && renewal
      ? `The team gets ${quote.seats} seats now. ${now} is charged today for the added seats (prorated to ${renewsOn}), then ${renewal} at each renewal.`
      : `The team gets ${quote.seats} seats now. The added seats are charged today, prorated to ${renewsOn}.`;
  if (quote.effect === "next-renewal")
    return `The team keeps its seats until ${renewsOn}, then renews with ${quote.seats} seats${renewal ? ` for ${renewal}` : ""}. Nothing is charged now.`;
  return `The scheduled reduction is cancelled: the team renews with ${quote.seats} seats${renewal ? ` for ${renewal}` : ""} on ${renewsOn}.`;
}

export const TEAM_TOASTS = {
  renamed: (name: string) => ({ title: "Team renamed", description: `The team is now called ${name}.` }),
  invited: (count: number) => ({
    title: count === 1 ? "Invitation sent" : "Invitations sent",
    description: `${count} ${count === 1 ? "invitation was" : "invitations were"} sent, each valid for 7 days.`,
  }),
  resent: (email: string) => ({ title: "Invitation sent again", description: `A new link went to ${email}.` }),
  withdrawn: { title: "Invitation withdrawn", description: "Its link no longer works." },
  removed: (name: string) => ({
    title: "Member removed",
    description: `${name} was removed; their seat license is revoked and the seat is free.`,
  }),
  seatTaken: (shortId: string) => ({
    title: "You have a seat",
    description: `License ${shortId} is on your licenses page.`,
  }),
  seatsChanged: (seats: number, now: boolean) => ({
    title: "Seats changed",
    description: now ? `The team now has ${seats} seats.` : `The team renews with ${seats} seats.`,
  }),
  domainClaim: (domain: string | null) => ({
    title: domain ? "Domain seats on" : "Domain seats off",
    description: domain
      ? `Anyone with a confirmed @${domain} address may claim a free seat.`
      : "Seats are handed out by invitation only.",
  }),
  roleChanged: (role: string) => ({ title: "Role changed", description: `The member is now a ${role}.` }),
} as const;
