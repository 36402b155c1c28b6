import { eq } from "drizzle-orm";
import { addMonths } from "~/domain/extension";
import { PAYMENT_PROBLEM_TEXTS, subscriptionChangesRefused } from "~/domain/past-due";
import { getPlan, isPlanId } from "~/domain/plans";
import { renewalCharge } from "~/domain/renewal-charge";
import { decideSeatChange, proratedCents, type SeatChange } from "~/domain/team-seats";
import { ActionError } from "../action-error.server";
import { auditTeamChange } from "./team-audit.server";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { licenseCharges } from "../billing/license-charges.server";
import { ProviderError } from "../billing/payment-provider.server";
import { getDb } from "../db/db.server";
import { teams, users, type Team } from "../db/schema";
import { getLogger } from "../logger.server";
import { billingLicenseOf } from "./seat-license.server";
import { authorizeTeam } from "./team-access.server";
import { sendTeamMail } from "./team-mail.server";

/** What a seat change will do and cost, shown before the owner confirms. */
export interface SeatChangeQuote {
  effect: "now" | "next-renewal" | "cancel-reduction";
  seats: number;
  /** Charged now for the added seats (the provider's proration, estimated); 0 for a reduction; null when not known. */
  dueNowCents: number | null;
  /** What each renewal bills from the next one; null when not known in the subscription's currency. */
  renewalCents: number | null;
  /** The team's subscription's currency, which both amounts are in (decision 0072). */
  currency: string;
  /** When the next renewal is (ISO). */
  renewsAt: string;
}

const refused = (change: SeatChange): Extract<SeatChange, { ok: true }> => {
  if (!change.ok) throw new ActionError(409, change.error);
  return change;
};

/** Decides a change under the team's lock: only the owner, never below the assigned seats. */
async function decide(input: { teamId: string; actorId: string; seats: number; now: Date }) {
  if (!Number.isInteger(input.seats)) throw new ActionError(422, "Enter a whole number of seats.");
  return getDb().transaction(async (tx) => {
    const { team, facts } = await authorizeTeam(tx, input.teamId, input.actorId, "change-seats", input.now);
    const change = refused(decideSeatChange(facts, input.seats));
    const billing = await billingLicenseOf(tx, team.id);
    if (!billing || billing.status !== "active" || billing.refunded)
      throw new ActionError(409, "The team's subscription is not active: its seats cannot change.");
    // The provider refuses any change to a past-due subscription (subscription_update_when_past_due).
    if (subscriptionChangesRefused(billing)) throw new ActionError(409, PAYMENT_PROBLEM_TEXTS.changeRefused);
    // One seat's price in the subscription's currency: its last full charge ÷ its seats outside US dollars.
    const { cents: unit, currency } = renewalCharge({
      license_type: team.plan_type,
      team_role: "billing",
      renewal_seats: 1,
      plan_next_renewal: null,
      renewal_discount_percent: null,
      charges: await licenseCharges(billing.id, tx),
    });
    const months = isPlanId(team.plan_type) ? getPlan(team.plan_type).months : 1;
    const period = { start: addMonths(billing.end_date, -months), end: billing.end_date };
    const known = (cents: (unit: number) => number) => (unit === null ? null : cents(unit));
    const quote: SeatChangeQuote = {
      effect: change.effect,
      seats: change.seats,
      dueNowCents: change.effect === "now" ? known((u) => proratedCents(u, change.added, period, input.now)) : 0,
      renewalCents: known((u) => u * change.seats),
      currency,
      renewsAt: billing.end_date.toISOString(),
    };
    return { team, quote };
  });
}

/** The quote of changing a team's seats to `seats` (owner only); refuses what changeSeats would refuse. */
export async function quoteSeatChange(input: {
  teamId: string;
  actorId: string;
  seats: number;
  now?: Date;
}): Promise<SeatChangeQuote> {
  return (await decide({ ...input, now: input.now ?? new Date() })).quote;
}

/**
 * Changes a team's seat count (owner only). More seats: the provider's subscription is updated now
 * with proration_billing_mode prorated_immediately (its transaction arrives as a webhook and is
 * recorded as a "seats" payment with its invoice), and the seats are usable at once. Fewer seats:
 * from the next renewal (do_not_bill: the next renewal bills fewer), never below the assigned seats;
 * until then no more seats are handed out than that. The owner gets the "seats changed" e-mail.
 */
export async function changeSeats(input: {
  teamId: string;
  actorId: string;
  seats: number;
  now?: Date;
}): Promise<SeatChangeQuote> {
  const now = input.now ?? new Date();
  const { team, quote } = await decide({ ...input, now });
  try {
    await getPaymentProvider().updateSeats({
      subscriptionId: team.subscription_id,
      priceId: team.price_id ?? "",
      quantity: quote.effect === "cancel-reduction" ? team.seats_paid : quote.seats,
      proration: quote.effect === "now" ? "prorated_immediately" : "do_not_bill",
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    getLogger().error({ err: error, team: team.id }, "the provider refused the seat change");
    throw new ActionError(502, "The payment provider could not change the seats. Please try again.");
  }
  await recordSeatChange(team, input.actorId, quote);
  return quote;
}

async function recordSeatChange(team: Team, actorId: string, quote: SeatChangeQuote): Promise<void> {
  const [actor] = await getDb().select({ email: users.email }).from(users).where(eq(users.id, actorId));
  await getDb().transaction(async (tx) => {
    const [current] = await tx.select().from(teams).where(eq(teams.id, team.id)).for("update");
    const changes =
      quote.effect === "now"
        ? { seats_paid: Math.max(quote.seats, current?.seats_paid ?? 0), seats_next_renewal: null }
        : { seats_next_renewal: quote.effect === "next-renewal" ? quote.seats : null };
    await tx
      .update(teams)
      .set({ ...changes, updated_at: new Date() })
      .where(eq(teams.id, team.id));
    await auditTeamChange(tx, actorId, team, "team.seats", { ...quote });
  });
  if (actor) {
    sendTeamMail({
      kind: "seats-changed",
      to: actor.email,
      teamName: team.name,
      seats: quote.seats,
      effect: quote.effect,
      chargedCents: quote.effect === "now" ? quote.dueNowCents : null,
      renewalCents: quote.renewalCents,
      currency: quote.currency,
    });
  }
}
