// Payment webhook events applied per second, through the whole path (signature check, parse,
// record by id, apply, commit), on the embedded database and on PostgreSQL.
// PostgreSQL: BENCH_DATABASE_URL, else postgres://root@127.0.0.1:5432/test when it answers.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { receiveWebhook } from "../app/server/billing/receive-webhook.server";
import { signatureHeader } from "../app/server/billing/webhook-signature.server";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { profiles, users } from "../app/server/db/schema";
import { parseEnv, setEnv } from "../app/server/env.server";
import { withScratchDatabase } from "./support";

const SECRET = "bench-webhook-secret-0123456789";
const N = Number(process.env.BENCH_EVENTS ?? 2000);
const DAY = 86_400_000;

setEnv(
  parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-wh-")) }),
);

function purchaseEvent(userId: string, subscriptionId: string, start: Date, end: Date, origin = "web") {
  const total = "900";
  return {
    event_id: `evt_${randomBytes(12).toString("hex")}`,
    event_type: "transaction.completed",
    occurred_at: new Date().toISOString(),
    notification_id: `ntf_${randomBytes(8).toString("hex")}`,
    data: {
      id: `txn_${randomBytes(12).toString("hex")}`,
      status: "completed",
      customer_id: "ctm_bench",
      subscription_id: subscriptionId,
      origin,
      custom_data: { user_id: userId, plan_type: "monthly" },
      billing_period: { starts_at: start.toISOString(), ends_at: end.toISOString() },
      billed_at: start.toISOString(),
      created_at: start.toISOString(),
      items: [
        {
          price: { id: "pri_bench", billing_cycle: { interval: "month", frequency: 1 }, trial_period: null },
          quantity: 1,
        },
      ],
      details: {
        totals: { total, grand_total: total, currency_code: "USD" },
        line_items: [{ id: `txnitm_${randomBytes(8).toString("hex")}`, price_id: "pri_bench" }],
      },
    },
  };
}

async function run(label: string, database: DatabaseHandle) {
  await database.migrate();
  setDatabase(database);
  const userIds: string[] = [];
  for (let i = 0; i < 100; i++) {
    const [user] = await database.db
      .insert(users)
      .values({ email: `bench-${i}-${randomBytes(4).toString("hex")}@example.com`, emailVerified: true })
      .returning({ id: users.id });
    await database.db.insert(profiles).values({ id: user!.id, full_name: `Bench ${i}` });
    userIds.push(user!.id);
  }
  const deliver = async (event: unknown) => {
    const rawBody = JSON.stringify(event);
    const result = await receiveWebhook({
      rawBody,
      signature: signatureHeader(SECRET, rawBody),
      secret: SECRET,
    });
    if (result.status !== 200) throw new Error(`${result.status} ${result.body.message}`);
  };
  const now = Date.now();
  const subs = Array.from({ length: N }, (_, i) => ({
    userId: userIds[i % userIds.length]!,
    sub: `sub_${randomBytes(10).toString("hex")}`,
  }));
  let t = performance.now();
  for (const { userId, sub } of subs)
    await deliver(purchaseEvent(userId, sub, new Date(now), new Date(now + 30 * DAY)));
  const purchases = N / ((performance.now() - t) / 1000);
  t = performance.now();
  for (const { userId, sub } of subs)
    await deliver(
      purchaseEvent(userId, sub, new Date(now + 30 * DAY), new Date(now + 60 * DAY), "subscription_recurring"),
    );
  const renewals = N / ((performance.now() - t) / 1000);
  t = performance.now();
  const dup = purchaseEvent(subs[0]!.userId, subs[0]!.sub, new Date(now), new Date(now + 30 * DAY));
  await deliver(dup);
  for (let i = 0; i < N; i++) await deliver(dup);
  const duplicates = N / ((performance.now() - t) / 1000);
  t = performance.now();
  const batch = subs.slice(0, Math.min(N, 1000));
  await Promise.all(
    batch.map(({ userId }) =>
      deliver(purchaseEvent(userId, `sub_${randomBytes(10).toString("hex")}`, new Date(now), new Date(now + 30 * DAY))),
    ),
  );
  const concurrent = batch.length / ((performance.now() - t) / 1000);
  console.log(
    `  ${label}: purchases ${Math.round(purchases)}/s, renewals ${Math.round(renewals)}/s, redeliveries ${Math.round(duplicates)}/s, purchases delivered all at once ${Math.round(concurrent)}/s`,
  );
  setDatabase(undefined);
}

console.log(`webhook events applied per second (${N} of each, signature to commit)`);
await run("embedded PGlite (in memory)", await openDatabase({ memory: true }));
const pglite = await openDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "bench-wh-pglite-")) });
await run("embedded PGlite (on disk)", pglite);
await pglite.close();

await withScratchDatabase("bench_webhooks", async (url) => {
  const postgres = await openDatabase({ url, maxConnections: 10 });
  try {
    await run("PostgreSQL", postgres);
  } finally {
    await postgres.close();
  }
});
