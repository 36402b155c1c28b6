import { describe, expect, it } from "vitest";
import { removedFromTeamLine } from "~/domain/license-card";
import { invitationPath } from "~/domain/team-invitations";
import { teamEmail, type TeamEmailInput } from "~/emails/team-emails.server";

/** The team e-mails: each in HTML and plain text, saying what happened and what to do. */

const brand = {
  productName: "ForgeKit",
  publicUrl: "https://www.example.com",
  supportEmail: "support@forgekit.example",
};
const name = "Ada <b>Lovelace</b> & Co";
const teamName = "Acme <Tools> & Sons";
const at = new Date("2026-11-23T21:58:00.000Z");
const to = "grace@example.com";
const acceptUrl = `https://www.example.com${invitationPath("tok_abc")}`;

const cases: Record<TeamEmailInput["kind"], TeamEmailInput> = {
  invitation: { kind: "invitation", to, teamName, inviterName: name, acceptUrl, expiresAt: at },
  "seat-assigned": { kind: "seat-assigned", to, name, teamName, licenseShortId: "FK-7Q2M-9XKD" },
  "removed-from-team": { kind: "removed-from-team", to, name, teamName },
  "seats-changed": { kind: "seats-changed", to, name, teamName, seats: 5, effect: "now", chargedCents: 6000 },
  "team-ended": { kind: "team-ended", to, name, teamName, reason: "refunded" },
};

describe("the team e-mails", () => {
  it.each(Object.entries(cases))("%s renders the same message as HTML and plain text", async (_kind, input) => {
    const mail = await teamEmail(brand, input);
    expect(mail.to).toBe(to);
    expect(mail.subject).toContain("ForgeKit");
    expect(mail.subject).toContain(teamName);
    expect(mail.html).toMatch(/^<!DOCTYPE html/i);
    // Names are text, never markup.
    expect(mail.html).toContain("Acme &lt;Tools&gt; &amp; Sons");
    expect(mail.html).not.toContain("<Tools>");
    expect(mail.text).toContain(teamName);
    expect(mail.text.replaceAll(name, "").replaceAll(teamName, "")).not.toMatch(/<[a-z!/]/i);
    expect(mail.text).toContain("https://www.example.com");
    expect(mail.text.trim().length).toBeGreaterThan(100);
  });

  it("the invitation links to its accept page, says for which address and until when", async () => {
    const mail = await teamEmail(brand, cases.invitation);
    expect(mail.text).toContain(`Accept the invitation: ${acceptUrl}`);
    expect(mail.text).toContain("Accept with this e-mail address (grace@example.com)");
    expect(mail.text).toContain("valid for 7 days, until Nov 23, 2026");
    expect(mail.text).toContain("Hello there,");
  });

  it("the seat e-mail names the license and the team that provides it, never a key", async () => {
    const mail = await teamEmail(brand, cases["seat-assigned"]);
    expect(mail.text).toContain(`Provided by: ${teamName}`);
    expect(mail.text).toContain("License FK-7Q2M-9XKD");
    expect(mail.text).toContain(`Hello ${name},`);
  });

  it("the removal says what the member's card says: removed from the team, ask its owner", async () => {
    const mail = await teamEmail(brand, cases["removed-from-team"]);
    expect(mail.text).toContain(removedFromTeamLine(teamName));
    expect(mail.text).toContain(`You were removed from ${teamName}; ask its owner`);
    expect(mail.text).toContain('revoked ("removed from team")');
    expect(mail.subject).toBe(`ForgeKit: you were removed from ${teamName}`);
  });

  it("more seats name the prorated charge; fewer seats the renewal they start at", async () => {
    const more = await teamEmail(brand, cases["seats-changed"]);
    expect(more.subject).toBe(`ForgeKit: the ${teamName} team now has 5 seats`);
    expect(more.text).toContain("Charged now (prorated): $60.00");
    expect(more.text).toContain("Open my team: https://www.example.com/team");
    const fewer = await teamEmail(brand, {
      ...cases["seats-changed"],
      seats: 3,
      effect: "next-renewal",
      chargedCents: null,
    } as TeamEmailInput);
    expect(fewer.subject).toBe(`ForgeKit: the ${teamName} team renews with 3 seats`);
    expect(fewer.text).toContain("Nothing is charged now.");
    expect(fewer.text).not.toContain("Charged now");
  });

  it("the end of the team's subscription tells every member their seat stopped working", async () => {
    const mail = await teamEmail(brand, cases["team-ended"]);
    expect(mail.text).toContain("subscription was refunded, and with it the seat license");
    expect(mail.text).toContain("https://www.example.com/pricing");
  });
});
