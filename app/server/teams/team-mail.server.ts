import { formatUsd } from "~/domain/plans";
import type { MailMessage } from "../mail/mailer.server";
import { queueMail } from "../mail/outbox.server";
import { mailBrand } from "../mail/recipient.server";

/**
 * The team e-mails (issue 30). Each function queues one e-mail after the current request. The
 * texts here are plain placeholders: app/emails/team-emails.server.tsx may replace composeTeamMail's
 * body with React Email templates; the functions' names and inputs are the contract.
 */

export type TeamMail =
  | { kind: "invitation"; to: string; teamName: string; inviterName: string; acceptUrl: string; expiresAt: Date }
  | { kind: "seat-assigned"; to: string; teamName: string; licenseShortId: string }
  | { kind: "removed-from-team"; to: string; teamName: string }
  | {
      kind: "seats-changed";
      to: string;
      teamName: string;
      seats: number;
      effect: "now" | "next-renewal" | "cancel-reduction";
      /** What the provider charged at once (more seats now), when known. */
      chargedCents: number | null;
    }
  | { kind: "team-ended"; to: string; teamName: string; reason: "cancelled" | "refunded" | "revoked" };

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function lines(mail: TeamMail, site: string): { subject: string; body: string[] } {
  switch (mail.kind) {
    case "invitation":
      return {
        subject: `${mail.inviterName} invited you to ${mail.teamName}`,
        body: [
          `${mail.inviterName} invited you to take a seat in ${mail.teamName}.`,
          `Accept the invitation: ${mail.acceptUrl}`,
          `The link works until ${mail.expiresAt.toISOString().slice(0, 10)}. Sign in or register with this address.`,
        ],
      };
    case "seat-assigned":
      return {
        subject: `Your seat in ${mail.teamName}`,
        body: [
          `You have a seat in ${mail.teamName}: license ${mail.licenseShortId}.`,
          `Your key and license file are on ${site}/licenses.`,
        ],
      };
    case "removed-from-team":
      return {
        subject: `You were removed from ${mail.teamName}`,
        body: [`Your seat in ${mail.teamName} was removed; its license no longer works.`],
      };
    case "seats-changed":
      return {
        subject: `${mail.teamName} now has ${mail.seats} seats`,
        body: [
          mail.effect === "next-renewal"
            ? `${mail.teamName} will have ${mail.seats} seats from the next renewal.`
            : `${mail.teamName} has ${mail.seats} seats.`,
          ...(mail.chargedCents !== null ? [`Charged now: ${formatUsd(mail.chargedCents)}.`] : []),
        ],
      };
    case "team-ended":
      return {
        subject: `${mail.teamName}'s subscription has ended`,
        body: [`The subscription of ${mail.teamName} was ${mail.reason}; your seat license no longer works.`],
      };
  }
}

/** The e-mail's subject, HTML and text (placeholder templates, see above). */
export function composeTeamMail(mail: TeamMail): MailMessage {
  const brand = mailBrand();
  const { subject, body } = lines(mail, brand.publicUrl);
  const text = [...body, "", `${brand.productName} — ${brand.publicUrl}`].join("\n");
  const html = body.map((line) => `<p>${escape(line)}</p>`).join("");
  return { to: mail.to, subject, text, html };
}

/** Queues a team e-mail (sent after the request; a failure is logged, never answered). */
export function sendTeamMail(mail: TeamMail): void {
  queueMail(() => composeTeamMail(mail), `team ${mail.kind} e-mail`);
}
