import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.server";
import { demo_billing, type DemoBillingKind } from "../../db/schema";
import { ProviderError } from "../payment-provider.server";

/** The demo provider's records in demo_billing, in Paddle's shapes: what Paddle itself would keep. */
export function demoStore(db: () => Database) {
  return {
    async load<T>(id: string, kind: DemoBillingKind): Promise<T> {
      const [row] = await db()
        .select()
        .from(demo_billing)
        .where(and(eq(demo_billing.id, id), eq(demo_billing.kind, kind)));
      if (!row) throw new ProviderError(`demo ${kind} ${id} does not exist`);
      return row.data as T;
    },
    async save(kind: DemoBillingKind, data: { id: string }, subscriptionId: string | null): Promise<void> {
      await db()
        .insert(demo_billing)
        .values({ id: data.id, kind, subscription_id: subscriptionId, data })
        .onConflictDoUpdate({ target: demo_billing.id, set: { data, updated_at: sql`now()` } });
    },
    /** Paid once: ready → completed is one conditional write, so two Pays of one transaction cannot both succeed. */
    async completeReady(txn: { id: string }, subscriptionId: string | null): Promise<void> {
      const claimed = await db()
        .update(demo_billing)
        .set({ data: txn, subscription_id: subscriptionId, updated_at: sql`now()` })
        .where(
          and(
            eq(demo_billing.id, txn.id),
            eq(demo_billing.kind, "transaction"),
            sql`${demo_billing.data} ->> 'status' = 'ready'`,
          ),
        )
        .returning({ id: demo_billing.id });
      if (claimed.length === 0) throw new ProviderError(`transaction ${txn.id} was paid already`);
    },
  };
}
