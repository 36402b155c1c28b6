/**
 * The addresses of the team pages (issue 30), built in one place for the pages, the e-mails and
 * the tests: the owner's team page and an invitation's accept page.
 */

export const TEAM_PATH = "/team";

/** How long an invitation link stays valid (issue 30: seven days). */
export const INVITATION_VALID_DAYS = 7;

/** The accept page of one invitation: the token is the link's only secret. */
export function invitationPath(token: string): string {
  return `/team/invitations/${encodeURIComponent(token)}`;
}
