import { connectDemoProvider } from "../app/server/billing/configured-provider.server";
// npm run demo:renew -- <subscription id | --all>: the demo provider bills the next period of
// a demo subscription (or ends it, when its cancellation was scheduled), so a renewal can be
// watched without waiting a month. `--fail <subscription id>` declines the renewal's payment
// instead: the subscription is past due until a later demo:renew (or a new payment method) pays.
// Talks to the running site (same PORT and DATA_DIR); when the site is not running, opens the
// database itself.
import { describeOutcome, parseRenewTarget, renewDemo } from "../app/server/billing/demo/demo-renew.server";
import type { RenewOutcome } from "../app/server/billing/demo/demo-provider-type.server";
import { openDatabase } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { getEnv } from "../app/server/env.server";
import { JOB_DEFINITIONS } from "../app/server/jobs/definitions.server";
import { drainJobs, startJobs, stopJobs } from "../app/server/jobs/jobs.server";

async function main() {
  const target = parseRenewTarget(process.argv.slice(2));
  if (!target) {
    console.error("Usage: npm run demo:renew -- <sub_… | FK-XXXX-XXXX | --all>, or --fail <sub_… | FK-XXXX-XXXX>");
    process.exit(2);
  }
  const env = getEnv();
  if (env.PAYMENT_PROVIDER !== "demo") {
    console.error("demo:renew works with PAYMENT_PROVIDER=demo only; Paddle renews subscriptions itself.");
    process.exit(2);
  }
  let outcomes: RenewOutcome[] | undefined;
  try {
    const response = await fetch(`http://127.0.0.1:${env.PORT}/api/demo/renew`, {
      method: "POST",
      headers: { Authorization: `Bearer ${env.DEMO_WEBHOOK_SECRET}`, "Content-Type": "application/json" },
      body: JSON.stringify(target),
    });
    const body = (await response.json()) as { outcomes?: RenewOutcome[]; error?: string };
    if (!response.ok) {
      console.error(`The site refused: ${body.error ?? response.status}`);
      process.exit(1);
    }
    outcomes = body.outcomes;
  } catch {
    // The site is not running here: do it with the database directly.
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
    try {
      await database.migrate();
      setDatabase(database);
      // The renewals' follow-ups (e.g. stop renewing a revoked license) are queued as jobs: run them here.
      await startJobs(database, { definitions: JOB_DEFINITIONS, work: false, name: "demo:renew" });
      outcomes = await renewDemo(
        connectDemoProvider({ webhookSecret: env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null }),
        target,
      );
      await drainJobs();
    } finally {
      await stopJobs();
      setDatabase(undefined);
      await database.close();
    }
  }
  if (!outcomes?.length) console.log("No live demo subscriptions to renew.");
  for (const outcome of outcomes ?? []) console.log(describeOutcome(outcome));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
