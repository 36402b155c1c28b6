import type { TeamInvitationView, TeamMemberView, TeamSeatsView } from "./team-page";

/**
 * What the admin area shows of teams (docs/product.md): the admin's team page (seats, members, every
 * invitation, payments), a user's teams on their page, and the teams a search finds by name.
 */

export interface AdminTeamView {
  id: string;
  name: string;
  planType: string;
  ownerId: string;
  ownerEmail: string | null;
  createdAt: string;
  domain: string | null;
  domainClaim: boolean;
  seats: Omit<TeamSeatsView, "invitable">;
  subscription: { licenseId: string; label: string; endDate: string; active: boolean } | null;
  subscriptionId: string;
  members: TeamMemberView[];
  invitations: TeamInvitationView[];
  payments: {
    id: string;
    kind: string;
    amountCents: number;
    currency: string;
    billedAt: string;
    refundedCents: number;
  }[];
}

/** A team on a user's admin page: its name, the user's role, whether they hold a seat. */
export interface AdminUserTeamView {
  id: string;
  name: string;
  role: string;
  hasSeat: boolean;
  seatsPaid: number;
}

/** A team an admin search found by name. */
export interface AdminTeamMatch {
  id: string;
  name: string;
  ownerEmail: string;
  seatsPaid: number;
  createdAt: string;
}
