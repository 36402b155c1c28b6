import { eq, sql } from "drizzle-orm";
import { teamEmail, type TeamEmailInput } from "~/emails/team-emails.server";
import { getDb } from "../db/db.server";
import { profiles, users } from "../db/schema";
import { queueMail } from "../mail/outbox.server";
import { mailBrand } from "../mail/recipient.server";

/**
 * The team e-mails (docs/product.md): invitation, seat assigned, removed from team, seats changed and the
 * team's subscription ended. Each is the React Email template of app/emails/team-emails.server.tsx,
 * queued after the current request.
 */
export type TeamMail = TeamEmailInput;

/**
 * The name a team e-mail greets its address by, as the other customer e-mails do (the profile's full
 * name, else the account's): the account with that address, or "" when it has none (a newcomer
 * invited to a team), which greets "Hello there".
 */
async function greetedName(email: string): Promise<string> {
  const [row] = await getDb()
    .select({ name: users.name, fullName: profiles.full_name })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row ? row.fullName || row.name : "";
}

/** Queues a team e-mail (sent after the request; a failure is logged, never answered), greeting its recipient by name. */
export function sendTeamMail(mail: TeamMail): void {
  queueMail(
    async () => teamEmail(mailBrand(), { ...mail, name: mail.name ?? (await greetedName(mail.to)) }),
    `team ${mail.kind} e-mail`,
  );
}
