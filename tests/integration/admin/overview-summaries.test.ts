import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMonthsOverview } from "~/server/admin/months-overview.server";
import { getOverview } from "~/server/admin/overview.server";
import { cancel_answers, licenses, payments, user_events, users } from "~/server/db/schema";
import { startAdminTestApp } from "../../support/admin-app";
import { monthsOverviewFromScratch } from "../../support/months-overview-from-scratch";
import { overviewFromScratch } from "../../support/overview-from-scratch";
import { createUser, testEngines, type TestApp } from "../../support/test-app";

// The admin overview's summaries (decision 0078, migration 0041), kept by triggers as licenses,
// payments, cancel answers and plan switches change, give exactly the figures counted from the rows
// themselves, after a mix of what happens to customers over eight months, at any moment of the day.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SUMMARIES = [
  "admin_license_days",
  "admin_trial_days",
  "admin_refund_days",
  "admin_payment_days",
  "admin_license_first_paid",
  "admin_new_months",
  "admin_cancel_months",
  "admin_plan_change_months",
];

describe.each(testEngines({ pglite: "always", because: "triggers and a migration's backfill, on both engines" }))(
  "admin overview's summaries on %s",
  (engine) => {
    let app: TestApp;
    beforeAll(async () => {
      ({ app } = await startAdminTestApp(engine));
    });
    afterAll(async () => app?.close());
    const db = () => app.database.db;
    const now = new Date();
    const ago = (days: number, hours = 0) => new Date(now.getTime() - days * DAY - hours * HOUR);
    let txn = 0;

    /** Every figure of the overview and its months, at moments around now, both ways. */
    async function expectSameFigures() {
      const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const moments = [now, new Date(today.getTime() + 1), new Date(today.getTime() + DAY - 1), ago(-2, 5), ago(20, 7)];
      for (const at of moments) {
        expect(await getOverview(at)).toEqual(await overviewFromScratch(at));
        expect(await getMonthsOverview(at)).toEqual(await monthsOverviewFromScratch(at));
      }
    }

    /** The summaries' rows with a count (a decrement can leave a zero), in a stable order. */
    async function summaryRows() {
      const out: Record<string, unknown[]> = {};
      for (const table of SUMMARIES) {
        const result = await db().execute(sql.raw(`select * from ${table} t where count <> 0 order by t::text`));
        out[table] = (result as unknown as { rows: unknown[] }).rows;
      }
      return out;
    }

    async function customer(n: number) {
      const user = await createUser(db(), `summaries-${engine}-${n}@example.com`);
      const license = (values: Partial<typeof licenses.$inferInsert>) =>
        db()
          .insert(licenses)
          .values({
            user_id: user.id,
            email: user.email,
            license_key: `k-${n}-${Math.random()}`,
            license_type: "monthly",
            end_date: ago(-30),
            start_date: ago(240),
            auto_renew: true,
            ...values,
          })
          .returning()
          .then((rows) => rows[0]!);
      const pay = (licenseId: string, kind: "purchase" | "renewal", cents: number, billed: Date) =>
        db()
          .insert(payments)
          .values({
            id: `txn_sum_${engine}_${++txn}`,
            license_id: licenseId,
            user_id: user.id,
            kind,
            amount_cents: cents,
            billed_at: billed,
          })
          .returning()
          .then((rows) => rows[0]!);
      const switched = (licenseId: string, from: string, to: string, at: Date) =>
        db()
          .insert(user_events)
          .values({ user_id: user.id, kind: "license.plan_changed", details: { license_id: licenseId, from, to }, at });
      return { user, license, pay, switched };
    }

    it("after purchases, renewals, trials, switches, cancellations, offers, refunds, chargebacks and deletions", async () => {
      // Figures before anything happened: both ways zero.
      await expectSameFigures();

      for (let n = 0; n < 6; n++) {
        const { user, license, pay, switched } = await customer(n);
        const start = 200 - n * 30; // purchases spread over eight months back to this week

        // A purchase and its monthly renewals, the last one in the future's past (this month).
        const monthly = await license({ license_type: "monthly", end_date: ago(-10 - n) });
        await pay(monthly.id, "purchase", 900, ago(start, n));
        for (let d = start - 30; d > 0; d -= 30) {
          await pay(monthly.id, "renewal", 900, ago(d, n));
          await db()
            .update(licenses)
            .set({ end_date: ago(d - 30, n) })
            .where(eq(licenses.id, monthly.id));
        }

        // A trial: the free start, then either converted by its first paid renewal or left to end.
        const trial = await license({
          license_type: "yearly",
          is_trial: true,
          trial_starts_at: ago(14 + n * 3),
          trial_ends_at: ago(n * 3 - 4, n),
          end_date: ago(n * 3 - 4, n),
        });
        await pay(trial.id, "purchase", 0, ago(14 + n * 3));
        if (n % 2 === 0 && n * 3 - 4 > 0) {
          await pay(trial.id, "renewal", 9000, ago(n * 3 - 4, n));
          await db()
            .update(licenses)
            .set({ is_trial: false, end_date: ago(-360) })
            .where(eq(licenses.id, trial.id));
        }

        // A switch up then down, on the license and the customer's timeline.
        await db().update(licenses).set({ license_type: "yearly" }).where(eq(licenses.id, monthly.id));
        await switched(monthly.id, "monthly", "yearly", ago(start / 2));
        if (n % 3 === 0) {
          await db().update(licenses).set({ license_type: "6_months" }).where(eq(licenses.id, monthly.id));
          await switched(monthly.id, "yearly", "6_months", ago(start / 3));
        }

        // A cancellation with a reason: the offer taken (renewal stays on) or declined (it ends).
        const cancelling = await license({ license_type: n % 2 ? "6_months" : "yearly", end_date: ago(-5 + n * 2, n) });
        await pay(cancelling.id, "purchase", n % 2 ? 4950 : 9000, ago(start + 10));
        const [answer] = await db()
          .insert(cancel_answers)
          .values({
            license_id: cancelling.id,
            reason: (["too-expensive", "not-using", null] as const)[n % 3],
            offer: "discount",
            outcome: "declined",
            created_at: ago(n * 20),
          })
          .returning();
        if (n % 2 === 0) {
          await db().update(cancel_answers).set({ outcome: "taken" }).where(eq(cancel_answers.id, answer!.id));
        } else {
          await db()
            .update(licenses)
            .set({ auto_renew: false, cancellation_requested: true, cancellation_requested_at: ago(n * 20) })
            .where(eq(licenses.id, cancelling.id));
        }

        // A refund of a fresh purchase: the license refunded, the payment refunded in full.
        const refunded = await license({ license_type: "monthly", end_date: ago(-20) });
        const refundedPayment = await pay(refunded.id, "purchase", 900, ago(n * 10 + 2));
        await db()
          .update(licenses)
          .set({ status: "refunded", refunded: true, refunded_at: ago(n * 10), auto_renew: false })
          .where(eq(licenses.id, refunded.id));
        await db().update(payments).set({ refunded_cents: 900 }).where(eq(payments.id, refundedPayment.id));

        // A chargeback: the payment disputed, the license revoked.
        const disputed = await license({ license_type: "yearly", end_date: ago(-300) });
        const disputedPayment = await pay(disputed.id, "purchase", 9000, ago(n * 15 + 5));
        await db()
          .update(payments)
          .set({ dispute_status: "charged_back", dispute_at: ago(n * 15), dispute_cents: 9000 })
          .where(eq(payments.id, disputedPayment.id));
        await db()
          .update(licenses)
          .set({ status: "revoked", charged_back_at: ago(n * 15), auto_renew: false })
          .where(eq(licenses.id, disputed.id));

        // A team's seat (never new, never churn) that leaves the team and becomes personal, then back.
        const seat = await license({ license_type: "yearly", team_role: "seat", end_date: ago(-100) });
        await pay(seat.id, "purchase", 9000, ago(start));
        if (n === 1) await db().update(licenses).set({ team_role: null }).where(eq(licenses.id, seat.id));
        if (n === 2) {
          await db().update(licenses).set({ team_role: null }).where(eq(licenses.id, seat.id));
          await db().update(licenses).set({ team_role: "seat" }).where(eq(licenses.id, seat.id));
        }

        // Two purchases billed at the same moment, then an earlier payment recorded late; a payment moved.
        const twice = await license({ license_type: "6_months", end_date: ago(-150) });
        await pay(twice.id, "purchase", 4950, ago(40, n));
        await pay(twice.id, "renewal", 4950, ago(40, n));
        if (n === 3) await pay(twice.id, "renewal", 4950, ago(70));
        if (n === 4)
          await db()
            .update(payments)
            .set({ license_id: monthly.id })
            .where(eq(payments.id, `txn_sum_${engine}_${txn}`));
        if (n === 5)
          await db()
            .update(payments)
            .set({ billed_at: ago(100), amount_cents: 0 })
            .where(eq(payments.id, `txn_sum_${engine}_${txn}`));

        // An audit-free renewal cancelled that ends today, before or after this moment.
        await license({
          license_type: "monthly",
          auto_renew: false,
          cancellation_requested: true,
          end_date: new Date(now.getTime() + (n % 2 ? -1 : 1) * 60_000 * (n + 1)),
        }).then((l) => pay(l.id, "purchase", 900, ago(29)));

        await expectSameFigures();

        // A user deleted with everything of theirs, and a single license deleted.
        if (n === 2) await db().delete(users).where(eq(users.id, user.id));
        if (n === 4) await db().delete(licenses).where(eq(licenses.id, twice.id));
      }
      await expectSameFigures();

      // The summaries kept row by row are what the migration's backfill computes from scratch.
      const kept = await summaryRows();
      expect(kept.admin_new_months!.length).toBeGreaterThan(0);
      expect(kept.admin_license_days!.length).toBeGreaterThan(0);
      await db().execute(sql`select admin_summaries_rebuild()`);
      expect(await summaryRows()).toEqual(kept);
      await expectSameFigures();
    });
  },
);
