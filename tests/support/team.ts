import { hashPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { ActionError } from "~/server/action-error.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import type { DatabaseHandle } from "~/server/db/client.server";
import { accounts, licenses, teams } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import type { MailMessage } from "~/server/mail/mailer.server";
import { createTeamCheckout } from "~/server/teams/team-checkout.server";
import { createUser, startTestApp, type EngineName, type TestApp } from "./test-app";

type Db = DatabaseHandle["db"];

/**
 * The app every team integration test starts from: a fresh database on the engine with the demo
 * provider (refunds approved at once), which the test file starts with `startApp` before its tests
 * and closes with `stopApp` after them; `newUser(name)` makes a confirmed account with an address of
 * its own.
 */
export function teamApp(engine: EngineName, envOverrides: Record<string, string> = {}) {
  const team = { app: undefined as unknown as TestApp, demo: undefined as unknown as DemoProvider };
  let n = 0;
  async function startApp() {
    team.app = await startTestApp(engine, envOverrides);
    team.demo = connectDemoProvider({ webhookSecret: team.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(team.demo);
  }
  async function stopApp() {
    setPaymentProvider(undefined);
    await team.app?.close();
  }
  const db = () => team.app.database.db;
  return {
    startApp,
    stopApp,
    app: () => team.app,
    demo: () => team.demo,
    db,
    newUser: (name: string, fullName?: string) =>
      createUser(db(), `${name}-${engine}-${++n}@example.com`, fullName ? { fullName } : {}),
  };
}

/** The refusal a teams service throws: its status and text (null when it did not refuse). */
export async function refusal(run: Promise<unknown>): Promise<{ status: number; message: string } | null> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ActionError) return { status: error.status, message: error.message };
    throw error;
  }
  return null;
}

/** The status a teams service answers: its refusal's, or 200. */
export async function status(run: Promise<unknown>): Promise<number> {
  return (await refusal(run))?.status ?? 200;
}

/** Gives an account a password, so it can sign in through the login form of a running server. */
export async function givePassword(db: Db, userId: string, password: string): Promise<void> {
  await db
    .insert(accounts)
    .values({ accountId: userId, providerId: "credential", userId, password: await hashPassword(password) });
}

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

/** The invitation token in the newest of the given e-mails to an address. */
export function tokenIn(mails: readonly { to: string; text: string }[], to: string): string {
  const mail = [...mails].reverse().find((m) => m.to === to && /\/team\/invitation\?token=/.test(m.text));
  const match = mail?.text.match(/\/team\/invitation\?token=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no invitation mailed to ${to}`);
  return match[1]!;
}

/** The invitation token e-mailed to an address (the newest one). */
export async function invitationToken(mails: MailMessage[], to: string): Promise<string> {
  await flushMail();
  return tokenIn(mails, to);
}
