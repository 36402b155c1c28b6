/**
 * A domain seat claim (docs/product.md), as the claimer sees it: the card offering a team's free seat to
 * confirmed addresses at its domain (on /licenses and /team), its confirmation, and each refusal.
 * The claim is off unless the team's owner turns it on on /team; the domain is the owner's own
 * confirmed address's.
 */
export interface ClaimableTeamView {
  id: string;
  name: string;
  domain: string;
}

export const CLAIM_TEXTS = {
  cardTitle: (team: string) => `Your company's team ${team} offers seats`,
  cardBody: (domain: string) =>
    `Anyone with a confirmed @${domain} address may take one of its free seats without an invitation: a license the team pays for, on your own account.`,
  take: "Take a seat",
  confirmTitle: (team: string) => `Take a seat in ${team}?`,
  confirmBody: (team: string) =>
    `You get a seat license provided by ${team}, with its key, offline data and license file on your licenses page. The team's owner pays for it and manages its renewal, and may give the seat to someone else later. You get an e-mail with your seat license.`,
  confirm: "Take the seat",
  keep: "Not now",
  taken: (team: string, shortId: string) => ({
    title: `Welcome to ${team}`,
    description: `Your seat license ${shortId} is on your licenses page, provided by ${team}.`,
  }),
} as const;

export const CLAIM_ERRORS = {
  notOffered: "This team does not offer seats to your address's domain.",
  unconfirmed: "Confirm your e-mail address first, then take the seat.",
} as const;
