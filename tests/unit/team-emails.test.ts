import { describe, expect, it } from "vitest";
import { invitationPath } from "~/domain/team-links";
import * as teamEmails from "~/emails/team-emails.server";

/** The team e-mails (issue 30): each in HTML and plain text, saying what happened and what to do. */

const brand = {
  productName: "ForgeKit",
  publicUrl: "https://www.example.com",
  supportEmail: "support@forgekit.example",
};
const name = "Ada <b>Lovelace</b> & Co";
const team = "Acme <Tools> & Sons";
const at = new Date("2026-11-23T21:58:00.000Z");
const license = { shortId: "FK-7Q2M-9XKD", planName: "Yearly", licenseKey: "aXY=:Y2lwaGVy", endDate: at };
const seats = { brand, name, teamName: team, shortId: "FK-7Q2M-9XKD", planName: "Yearly" };
const renewal = { at: new Date("2027-01-02T00:00:00Z"), amount: "$450.00" };

const cases = {
  teamInvitationEmail: () =>
    teamEmails.teamInvitationEmail("grace@example.com", {
      brand,
      teamName: team,
      inviterName: name,
      planName: "Yearly",
      token: "tok_abc",
      expiresAt: at,
    }),
  seatAssignedEmail: () => teamEmails.seatAssignedEmail("grace@example.com", { brand, name, teamName: team, license }),
  removedFromTeamEmail: () =>
    teamEmails.removedFromTeamEmail("grace@example.com", { brand, name, teamName: team, shortId: "FK-7Q2M-9XKD" }),
  seatsChangedEmail: () =>
    teamEmails.seatsChangedEmail("ada@example.com", {
      ...seats,
      from: 3,
      to: 5,
      chargedNow: "$60.00",
      effectiveOn: at,
      renewal,
    }),
  teamSubscriptionEndedEmail: () =>
    teamEmails.teamSubscriptionEndedEmail("grace@example.com", {
      brand,
      name,
      teamName: team,
      shortId: "FK-7Q2M-9XKD",
      endedOn: at,
    }),
};

describe("the team e-mails", () => {
  it("are all covered here", () => {
    const exported = Object.entries(teamEmails)
      .filter(([, value]) => typeof value === "function")
      .map(([key]) => key);
    expect(exported.sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.entries(cases))("%s renders the same message as HTML and plain text", async (_label, render) => {
    const mail = await render();
    expect(mail.subject).toContain("ForgeKit");
    expect(mail.subject).toContain(team);
    expect(mail.html).toMatch(/^<!DOCTYPE html/i);
    // Names are text, never markup.
    expect(mail.html).toContain("Acme &lt;Tools&gt; &amp; Sons");
    expect(mail.html).not.toContain("<Tools>");
    expect(mail.text).toContain(team);
    expect(mail.text.replaceAll(name, "").replaceAll(team, "")).not.toMatch(/<[a-z!/]/i);
    expect(mail.text).toContain("https://www.example.com");
    expect(mail.text.trim().length).toBeGreaterThan(100);
  });

  it("the invitation links to its accept page, says for whom and until when it is valid", async () => {
    const mail = await cases.teamInvitationEmail();
    expect(mail.to).toBe("grace@example.com");
    expect(mail.text).toContain(`Accept the invitation: https://www.example.com${invitationPath("tok_abc")}`);
    expect(mail.text).toContain("Accept with this e-mail address (grace@example.com)");
    expect(mail.text).toContain("valid for 7 days, until Nov 23, 2026");
    expect(mail.text).toContain("Hello there,");
  });

  it("the seat e-mail delivers the key and names the team that provides it", async () => {
    const mail = await cases.seatAssignedEmail();
    expect(mail.text).toContain("aXY=:Y2lwaGVy");
    expect(mail.text).toContain(`Provided by: ${team}`);
    expect(mail.text).toContain("License FK-7Q2M-9XKD");
  });

  it("the removal says the seat license was revoked as removed from team, without the key", async () => {
    const mail = await cases.removedFromTeamEmail();
    expect(mail.text).toContain('revoked with the reason "removed from team"');
    expect(mail.text).not.toContain("aXY=");
  });

  it("more seats name the prorated charge now; fewer seats the renewal they start at", async () => {
    const more = await cases.seatsChangedEmail();
    expect(more.subject).toBe(`ForgeKit: the ${team} team now has 5 seats`);
    expect(more.text).toContain("Seats: 3 → 5");
    expect(more.text).toContain("Charged now (prorated): $60.00");
    expect(more.text).toContain("Next renewal: Jan 2, 2027 for $450.00");
    expect(more.text).toContain("https://www.example.com/team");
    const fewer = await teamEmails.seatsChangedEmail("ada@example.com", {
      ...seats,
      from: 5,
      to: 3,
      chargedNow: null,
      effectiveOn: renewal.at,
      renewal: { at: renewal.at, amount: "$270.00" },
    });
    expect(fewer.subject).toBe(`ForgeKit: the ${team} team renews with 3 seats`);
    expect(fewer.text).toContain("Takes effect: Jan 2, 2027");
    expect(fewer.text).not.toContain("Charged now");
  });

  it("the end of the team's subscription tells the member their seat license stopped", async () => {
    const mail = await cases.teamSubscriptionEndedEmail();
    expect(mail.text).toContain("subscription ended on Nov 23, 2026");
    expect(mail.text).toContain("https://www.example.com/pricing");
  });
});
