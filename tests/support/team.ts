import { eq } from "drizzle-orm";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import type { DatabaseHandle } from "~/server/db/client.server";
import { licenses, teams } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import type { MailMessage } from "~/server/mail/mailer.server";
import { createTeamCheckout } from "~/server/teams/team-checkout.server";

type Db = DatabaseHandle["db"];

/** A team bought through the server's team checkout and the demo overlay's Pay. */
export async function buyTeam(
  db: Db,
  demo: DemoProvider,
  owner: { id: string; email: string },
  seats: number,
  planId = "monthly",
) {
  const checkout = await createTeamCheckout({ userId: owner.id, email: owner.email, planId, seats, teamName: "Acme" });
  const paid = await demo.payCheckout(checkout.transactionId);
  const [team] = await db.select().from(teams).where(eq(teams.subscription_id, paid.subscriptionId));
  const [billing] = await db.select().from(licenses).where(eq(licenses.paddle_subscription_id, paid.subscriptionId));
  return { checkout, team: team!, billing: billing!, ...paid };
}

/** The invitation token e-mailed to an address (the newest one). */
export async function invitationToken(mails: MailMessage[], to: string): Promise<string> {
  await flushMail();
  const mail = [...mails].reverse().find((m) => m.to === to && /\/team\/invitation\//.test(m.text));
  const match = mail?.text.match(/\/team\/invitation\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no invitation mailed to ${to}`);
  return match[1]!;
}
