import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseNextStep } from "~/domain/license-attention";
import { licenseState } from "~/domain/license-state";
import { supportView } from "~/domain/license-support";
import { getPlan } from "~/domain/plans";
import { revokeLicense } from "~/server/admin/manage-licenses.server";
import { getUserDetails } from "~/server/admin/user-details.server";
import { billingOverview } from "~/server/billing/billing-overview.server";
import { audit_log, licenses } from "~/server/db/schema";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { sendCustomerMail } from "~/server/mail/customer-mail.server";
import { acceptInvitation } from "~/server/teams/team-accept.server";
import { inviteMembers } from "~/server/teams/team-invitations.server";
import { changeSeats } from "~/server/teams/team-seats.server";
import { teamPage } from "~/server/teams/team-views.server";
import { buyTeam, invitationToken, teamApp } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The owner's team subscription renews for every seat its next renewal bills, on every
 * page and e-mail that names the charge; a member's seat names no charge at all.
 */
describe.each(testEngines())("a team's renewal charge on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  async function ownerRow(ownerId: string, billingId: string) {
    const own = await listUserLicenses(ownerId);
    return own.find((l) => l.id === billingId)!;
  }

  it("/licenses, /billing, the admin's user page and /team price every seat; the member's seat none", async () => {
    const unit = getPlan("monthly").priceCents;
    const owner = await newUser("owner");
    const ann = await newUser("ann");
    const { team, billing } = await buyTeam(db(), demo(), owner, 3);
    await inviteMembers({ teamId: team.id, actorId: owner.id, emails: ann.email });
    const seat = await acceptInvitation({ token: await invitationToken(app().mails, ann.email), userId: ann.id });
    const now = new Date();

    const row = await ownerRow(owner.id, billing.id);
    expect(licenseState(row, now).nextChargeCents).toBe(unit * 3);
    expect(licenseState(row, now).line).toContain(`for ${usd(unit * 3)}`);
    expect(licenseNextStep(row, now).amount).toBe(usd(unit * 3));
    const [upcoming] = billingOverview([row], [], now).upcoming;
    expect(upcoming).toMatchObject({ amountCents: unit * 3 });
    expect(upcoming!.text).toContain(`${usd(unit * 3)} for 3 seats of the Monthly team subscription`);

    const admin = await getUserDetails(owner.id);
    const adminRow = admin!.licenses.find((l) => l.id === billing.id)!;
    expect(supportView(adminRow, now).state.line).toContain(`for ${usd(unit * 3)}`);
    expect((await teamPage(team.id, owner.id)).subscription?.state).toBe("renewing");

    const member = (await listUserLicenses(ann.id)).find((l) => l.id === seat.licenseId)!;
    expect(licenseState(member, now).state).toBe("renewing");
    expect(licenseState(member, now).nextChargeCents).toBeNull();
    expect(licenseState(member, now).line).not.toContain("$");
    expect(billingOverview([member], [], now).upcoming).toEqual([]);
    const memberAdmin = (await getUserDetails(ann.id))!.licenses.find((l) => l.id === seat.licenseId)!;
    expect(supportView(memberAdmin, now).state.line).not.toContain("$");

    // More seats now: the next renewal bills 5; fewer from the next renewal: it bills 4.
    await changeSeats({ teamId: team.id, actorId: owner.id, seats: 5 });
    expect(licenseState(await ownerRow(owner.id, billing.id), now).nextChargeCents).toBe(unit * 5);
    await changeSeats({ teamId: team.id, actorId: owner.id, seats: 4 });
    expect(licenseState(await ownerRow(owner.id, billing.id), now).nextChargeCents).toBe(unit * 4);
  });

  it("a failed team renewal and the renewal reminder name the seats' price", async () => {
    const unit = getPlan("yearly").priceCents;
    const owner = await newUser("owner");
    const { billing, subscriptionId } = await buyTeam(db(), demo(), owner, 3, "yearly");
    // Due within the reminder's 7 days: the reminder e-mail names the renewal's amount.
    const soon = new Date(Date.now() + 3 * 86_400_000);
    await db().update(licenses).set({ end_date: soon }).where(eq(licenses.id, billing.id));
    const sent = await sendCustomerMail({ kind: "renewal-coming", licenseId: billing.id, details: {} });
    expect(sent).toMatchObject({ sent: "renewal-coming" });
    const mail = app().mails.findLast((m) => m.to === owner.email)!;
    expect(mail.text).toContain(usd(unit * 3));
    expect(mail.text).not.toContain(`for ${usd(unit)}`);

    await demo().failRenewal(subscriptionId);
    const failed = (await getUserDetails(owner.id))!.payments.find((p) => p.status === "failed");
    expect(failed).toMatchObject({ license_id: billing.id, amount_cents: unit * 3 });
  });

  it("the audit entry of an admin's action records the state line the owner saw, with every seat's price", async () => {
    const owner = await newUser("owner");
    const admin = await createUser(db(), `admin-${engine}@example.com`, { role: "admin" });
    const { billing } = await buyTeam(db(), demo(), owner, 3);
    await revokeLicense({ admin, licenseId: billing.id, reason: "chargeback" });
    const [entry] = await db()
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.action, "license.revoke"), eq(audit_log.target_id, billing.id)));
    const details = entry!.details as { license_status_line: string };
    expect(details.license_status_line).toContain(`for ${usd(getPlan("monthly").priceCents * 3)}`);
  });
});
