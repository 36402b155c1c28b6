import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney, paymentDescription } from "~/domain/billing";
import { formatDate } from "~/domain/format-date";
import { formatUsd } from "~/domain/plans";
import { getOwnPayment, listBillingHistory } from "~/server/billing/billing-history.server";
import { buildInvoice } from "~/server/billing/invoice.server";
import { invoiceResponse } from "~/server/billing/invoice-response.server";
import { flushMail } from "~/server/mail/outbox.server";
import { changeSeats, quoteSeatChange } from "~/server/teams/team-seats.server";
import { pdfText } from "../../support/pdf-text";
import { buyTeam, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

/**
 * Each seat change is confirmed with its price, and the prorated charge for added seats
 * (the provider's subscription_update transaction, from its webhook) is in the owner's billing
 * history with an invoice naming the seats and the proration.
 */
describe.each(testEngines())("a seat change's charge and invoice on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  it("added seats: quoted, e-mailed with the charge, in /billing with an invoice naming seats and proration", async () => {
    const owner = await newUser("owner");
    const stranger = await newUser("stranger");
    const { billing } = await buyTeam(db(), demo(), owner, 3);
    const quote = await quoteSeatChange({ teamId: billing.team_id!, actorId: owner.id, seats: 5 });
    expect(quote).toMatchObject({ effect: "now", seats: 5, renewalCents: 4500 });
    expect(quote.dueNowCents).toBeGreaterThan(0);
    expect(quote.dueNowCents).toBeLessThanOrEqual(1800);
    await changeSeats({ teamId: billing.team_id!, actorId: owner.id, seats: 5 });

    await flushMail();
    const confirmation = app().mails.findLast((m) => m.to === owner.email)!;
    expect(confirmation.text).toContain(`Charged now (prorated): ${formatMoney(quote.dueNowCents!, "USD")}`);
    expect(confirmation.text).toContain(`Each renewal: ${formatUsd(4500)}`);

    const history = await listBillingHistory(owner.id);
    const seats = history.find((entry) => entry.kind === "seats");
    expect(seats).toMatchObject({ license_short_id: billing.short_id, license_type: "monthly" });
    expect(Math.abs(seats!.amount_cents - quote.dueNowCents!)).toBeLessThanOrEqual(1);
    expect(paymentDescription(seats!)).toBe("Added seats, Monthly team");

    const payment = (await getOwnPayment(owner.id, seats!.id))!;
    const invoice = await buildInvoice(owner.id, payment);
    expect(invoice.totalCents).toBe(seats!.amount_cents);
    expect(invoice.lines).toHaveLength(1);
    const [line] = invoice.lines;
    expect(line).toMatchObject({ quantity: 2, amountCents: seats!.amount_cents });
    expect(line!.description).toContain("Added seats, Monthly team");
    expect(line!.detail).toContain("2 seats added (from 3 to 5 seats)");
    expect(line!.detail).toContain(`prorated for ${formatDate(new Date())} to ${formatDate(billing.end_date)}`);

    const answer = await invoiceResponse(owner.id, seats!.id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("application/pdf");
    const text = pdfText(new Uint8Array(await answer.arrayBuffer()));
    expect(text).toContain("2 seats added (from 3 to 5 seats)");
    expect(text).toContain(`$${(seats!.amount_cents / 100).toFixed(2)}`);
    expect((await invoiceResponse(stranger.id, seats!.id)).status).toBe(404);
  });

  it("fewer seats from the next renewal: confirmed with the renewal's price, nothing charged now", async () => {
    const owner = await newUser("owner");
    const { billing } = await buyTeam(db(), demo(), owner, 4);
    const quote = await changeSeats({ teamId: billing.team_id!, actorId: owner.id, seats: 2 });
    expect(quote).toMatchObject({ effect: "next-renewal", seats: 2, dueNowCents: 0, renewalCents: 1800 });
    await flushMail();
    expect(app().mails.findLast((m) => m.to === owner.email)!.text).toContain(`Each renewal: ${formatUsd(1800)}`);
    expect((await listBillingHistory(owner.id)).map((entry) => entry.kind)).toEqual(["purchase"]);
  });
});
