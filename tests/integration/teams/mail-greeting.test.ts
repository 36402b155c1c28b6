import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { greeting } from "~/emails/layout.server";
import { profiles } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { sendTeamMail, type TeamMail } from "~/server/teams/team-mail.server";
import { teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

// The team e-mails greet their recipient by name when the address is an account's (the
// profile's full name, else the account's name), as every other customer e-mail does; an address
// without an account (an invitation to a newcomer) is greeted "Hello there".
const KINDS = (to: string): TeamMail[] => [
  {
    kind: "invitation",
    to,
    teamName: "Acme",
    inviterName: "Olga Owner",
    acceptUrl: "http://127.0.0.1/team/invitation?token=x",
    expiresAt: new Date(Date.UTC(2026, 5, 1)),
  },
  { kind: "seat-assigned", to, teamName: "Acme", licenseShortId: "FK-ABCD-EFGH" },
  { kind: "removed-from-team", to, teamName: "Acme" },
  { kind: "seats-changed", to, teamName: "Acme", seats: 5, effect: "now", chargedCents: 1234 },
  { kind: "team-ended", to, teamName: "Acme", reason: "refunded" },
];

describe.each(testEngines())("team e-mails' greeting on %s", (engine) => {
  const { startApp, stopApp, app, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  it("greets an account by its profile's full name in all five team e-mails", async () => {
    const ann = await newUser("ann", "Ann Example");
    for (const mail of KINDS(ann.email.toUpperCase())) sendTeamMail(mail);
    await flushMail();
    const sent = app().mails.filter((m) => m.to.toLowerCase() === ann.email);
    expect(sent).toHaveLength(5);
    for (const mail of sent) {
      expect(mail.text).toContain(greeting("Ann Example"));
      expect(mail.html).toContain(greeting("Ann Example"));
    }
  });

  it("greets by the account's name without a profile name, and an address without an account as 'there'", async () => {
    const bob = await newUser("bob", "Bob Account");
    await db().update(profiles).set({ full_name: "" }).where(eq(profiles.id, bob.id));
    const stranger = `newcomer-${engine}@example.com`;
    for (const mail of [...KINDS(bob.email), ...KINDS(stranger)]) sendTeamMail(mail);
    await flushMail();
    for (const mail of app().mails.filter((m) => m.to === bob.email)) expect(mail.text).toContain("Hello Bob Account,");
    const theirs = app().mails.filter((m) => m.to === stranger);
    expect(theirs).toHaveLength(5);
    for (const mail of theirs) expect(mail.text).toContain(greeting(""));
  });
});
