import { teamEmail, type TeamEmailInput } from "~/emails/team-emails.server";
import { queueMail } from "../mail/outbox.server";
import { mailBrand } from "../mail/recipient.server";

/**
 * The team e-mails (issue 30): invitation, seat assigned, removed from team, seats changed and the
 * team's subscription ended. Each is the React Email template of app/emails/team-emails.server.tsx,
 * queued after the current request.
 */
export type TeamMail = TeamEmailInput;

/** Queues a team e-mail (sent after the request; a failure is logged, never answered). */
export function sendTeamMail(mail: TeamMail): void {
  queueMail(() => teamEmail(mailBrand(), mail), `team ${mail.kind} e-mail`);
}
