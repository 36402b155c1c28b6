import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { successView } from "~/server/billing/purchased-license.server";
import { licenses } from "~/server/db/schema";
import { chargeExtension } from "~/server/licenses/extend-license.server";
import { setOfflineData } from "~/server/licenses/offline-data.server";
import { TEAM_SUBSCRIPTION_REFUSED } from "~/server/licenses/own-license.server";
import { cancelRenewal, reenableRenewal } from "~/server/licenses/renewal.server";
import { requestRefund } from "~/server/licenses/request-refund.server";
import { acceptInvitation } from "~/server/teams/team-accept.server";
import { inviteMembers } from "~/server/teams/team-invitations.server";
import { buyTeam, invitationToken, refusal, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

const SEAT_REFUSED = "This seat is provided by Acme; its owner manages billing.";

describe.each(testEngines())("a seat license's billing actions on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  const row = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;

  it("the member's refund, renewal and extension are refused with 409 and change nothing", async () => {
    const owner = await newUser("owner");
    const ann = await newUser("ann");
    const { team } = await buyTeam(db(), demo(), owner, 2);
    await inviteMembers({ teamId: team.id, actorId: owner.id, emails: ann.email });
    const { licenseId } = await acceptInvitation({
      token: await invitationToken(app().mails, ann.email),
      userId: ann.id,
    });
    const before = await row(licenseId);
    const refused = { status: 409, message: SEAT_REFUSED };
    expect(await refusal(requestRefund({ user: ann, licenseId }))).toEqual(refused);
    expect(await refusal(cancelRenewal({ userId: ann.id, licenseId }))).toEqual(refused);
    expect(await refusal(reenableRenewal({ userId: ann.id, licenseId }))).toEqual(refused);
    expect(
      await refusal(chargeExtension({ userId: ann.id, email: ann.email, licenseId, months: 1, years: 0 })),
    ).toEqual(refused);
    expect(await row(licenseId)).toEqual(before);
    // Offline data is the member's, like any license's.
    expect(
      await setOfflineData({ user: ann, licenseId, windows_username: "ann", computer_name: "ANN-PC" }),
    ).toMatchObject({
      keyRegenerated: true,
    });
  });

  it("the owner's team subscription row takes refund and renewal but no extension or offline data", async () => {
    const owner = await newUser("owner");
    const { billing } = await buyTeam(db(), demo(), owner, 2);
    const refused = { status: 409, message: TEAM_SUBSCRIPTION_REFUSED };
    expect(
      await refusal(
        chargeExtension({ userId: owner.id, email: owner.email, licenseId: billing.id, months: 1, years: 0 }),
      ),
    ).toEqual(refused);
    expect(
      await refusal(setOfflineData({ user: owner, licenseId: billing.id, windows_username: "o", computer_name: null })),
    ).toEqual(refused);
    expect(await row(billing.id)).toMatchObject({ windows_username: null, license_key: billing.license_key });
    expect(await refusal(cancelRenewal({ userId: owner.id, licenseId: billing.id }))).toBeNull();
    expect(await refusal(reenableRenewal({ userId: owner.id, licenseId: billing.id }))).toBeNull();
  });

  it("/success after a team purchase names the team and its seats, not the subscription's key", async () => {
    const owner = await newUser("owner");
    const { transactionId } = await buyTeam(db(), demo(), owner, 3);
    const view = await successView(owner.id, transactionId);
    expect(view).toMatchObject({ kind: "paid", team: { name: "Acme", seats: 3 }, license: { license_key: null } });
  });
});
