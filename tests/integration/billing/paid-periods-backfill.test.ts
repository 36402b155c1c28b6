import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startTestApp, testEngines } from "../../support/test-app";

const MIGRATION_ENGINES = testEngines({ pglite: "always", because: "a migration, on both engines" });

type Row = { id: string; period_start: string | Date | null; period_end: string | Date | null };
const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * Migration 0036 (decision 0070) gives the payments written before it the period they paid for: a
 * subscription charge the license's plan's months from its charge, continued to the next charge when
 * that came within 14 days after (a late retry splits no run); an extension its checkout's months; an
 * unpaid row (a trial) nothing.
 */
describe.each(MIGRATION_ENGINES)("paid periods backfilled by migration 0036 (%s)", (engine) => {
  it("reads each paid row's period back from its charge and its plan", async () => {
    const app = await startTestApp(engine, {}, { before: "0036_perpetual_fallback" });
    const db = app.database.db;
    try {
      // Raw inserts: the schema's tables have columns this migration adds.
      const user = (
        (await db.execute(
          sql`insert into users (email, name, email_verified) values ('backfill@example.com', 'Old User', true) returning id`,
        )) as unknown as { rows: { id: string }[] }
      ).rows[0]!;
      const license = (
        (await db.execute(
          sql`insert into licenses (user_id, email, license_type, start_date, end_date, license_key)
              values (${user.id}, 'backfill@example.com', 'monthly', '2024-12-25T00:00:00Z', '2025-05-01T00:00:00Z', 'old-key') returning id`,
        )) as unknown as { rows: { id: string }[] }
      ).rows[0]!;
      const pay = (id: string, kind: string, billedAt: string, cents = 900) =>
        db.execute(sql`insert into payments (id, license_id, user_id, kind, amount_cents, billed_at)
            values (${id}, ${license.id}, ${user.id}, ${kind}, ${cents}, ${billedAt})`);
      await pay("txn_trial", "purchase", "2024-12-25T00:00:00Z", 0);
      await pay("txn_jan", "renewal", "2025-01-01T00:00:00Z");
      // Charged 5 days late: January's period runs on to it.
      await pay("txn_feb", "renewal", "2025-02-06T00:00:00Z");
      // A month later than February's end: a gap stays a gap.
      await pay("txn_apr", "renewal", "2025-04-20T00:00:00Z");
      await pay("txn_ext", "extension", "2025-04-25T00:00:00Z", 1800);
      await db.execute(sql`insert into checkouts (user_id, kind, transaction_id, status, license_id, months, amount_cents)
          values (${user.id}, 'extension', 'txn_ext', 'completed', ${license.id}, 2, 1800)`);

      await app.database.migrate();
      const rows = (
        (await db.execute(sql`select id, period_start, period_end from payments order by billed_at`)) as unknown as {
          rows: Row[];
        }
      ).rows.map((row) => [row.id, iso(row.period_start), iso(row.period_end)]);
      expect(rows).toEqual([
        ["txn_trial", null, null],
        ["txn_jan", "2025-01-01T00:00:00.000Z", "2025-02-06T00:00:00.000Z"],
        ["txn_feb", "2025-02-06T00:00:00.000Z", "2025-03-06T00:00:00.000Z"],
        ["txn_apr", "2025-04-20T00:00:00.000Z", "2025-05-20T00:00:00.000Z"],
        ["txn_ext", "2025-04-25T00:00:00.000Z", "2025-06-25T00:00:00.000Z"],
      ]);
    } finally {
      await app.close();
    }
  });
});
