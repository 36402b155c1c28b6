import { days, envelope, signed, transaction } from "./paddle-fixtures";
import type { tlsClient } from "./load-balancer";

/**
 * Steady traffic through a load balancer for the rolling-deploy test (tests/resilience): request
 * loops over anonymous pages, a signed-in page and a desktop API validation, and a webhook loop that
 * delivers as Paddle does, retrying a delivery until it is answered 2xx. Every answer that is not
 * the expected one is a failure, with what came instead.
 */

const WORKERS = 4;
const DEMO_EMAIL = "demo@forgekit.example";

export type Client = ReturnType<typeof tlsClient>;
export interface Figures {
  sent: number;
  failed: string[];
  webhooks: {
    sent: number;
    delivered: number;
    /** Deliveries answered other than 2xx (or not at all), each retried: the answers seen. */
    retried: string[];
    ids: string[];
    subscriptions: string[];
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One of the steady requests: anonymous page, signed-in page or desktop API validation; null when right. */
async function oneRequest(client: Client, n: number, cookies: string[], apiAnswer: string): Promise<string | null> {
  const kind = n % 3;
  if (kind === 0) {
    const page = n % 2 ? "/" : "/pricing";
    const answer = await client.request("GET", page);
    return answer.status === 200 ? null : `GET ${page}: ${answer.status} ${answer.error ?? ""}`;
  }
  if (kind === 1) {
    const answer = await client.request("GET", "/profile", { Cookie: cookies[n % cookies.length]! });
    return answer.status === 200 && answer.body.includes(DEMO_EMAIL) ? null : `GET /profile: ${answer.status}`;
  }
  const answer = await validate(client);
  return answer === apiAnswer ? null : `POST /api/v1/licenses/validate: ${answer} (expected ${apiAnswer})`;
}

/** A desktop validation of an unknown key: its status and code, the same on every instance. */
let validations = 0;
export async function validate(client: Client): Promise<string> {
  // A new key each time: the per-key limit (API_KEY_RATE_LIMIT) is not under test here.
  const body = JSON.stringify({ key: `rolling-deploy-unknown-key-${++validations}`, nonce: "rolling-deploy-1" });
  const answer = await client.request(
    "POST",
    "/api/v1/licenses/validate",
    { "Content-Type": "application/json" },
    body,
  );
  if (answer.status === "error") return `error ${answer.error}`;
  try {
    return `${answer.status} ${String(JSON.parse(answer.body).code)}`;
  } catch {
    return `${answer.status} ${answer.body.replace(/\s+/g, " ").slice(0, 80)}`;
  }
}

/** One webhook delivery as Paddle makes it: a non-2xx or no answer is retried (here after 250 ms). */
async function deliverWebhook(client: Client, userId: string, secret: string, figures: Figures): Promise<void> {
  const start = new Date();
  const txn = transaction({
    userId,
    planType: "monthly",
    priceId: "pri_demo_monthly",
    amountCents: 900,
    start,
    end: days(30),
  });
  const event = envelope("transaction.completed", txn);
  figures.webhooks.sent++;
  figures.webhooks.ids.push(event.event_id);
  figures.webhooks.subscriptions.push(txn.subscription_id!);
  for (let attempt = 1; attempt <= 20; attempt++) {
    const { rawBody, signature } = signed(secret, event);
    const headers = { "Content-Type": "application/json", "Paddle-Signature": signature };
    const answer = await client.request("POST", "/api/webhooks/paddle", headers, rawBody);
    if (typeof answer.status === "number" && answer.status < 300) {
      figures.webhooks.delivered++;
      return;
    }
    figures.webhooks.retried.push(`${answer.status} ${answer.error ?? answer.body.slice(0, 60)}`);
    await sleep(250);
  }
}

/** Steady traffic until `running()` turns false: WORKERS request loops and one webhook loop. */
export async function traffic(
  client: Client,
  o: { cookies: string[]; apiAnswer: string; userId: string; webhookSecret: string },
  running: () => boolean,
  figures: Figures,
) {
  const loops = Array.from({ length: WORKERS }, async (_, worker) => {
    for (let n = worker; running(); n += WORKERS) {
      figures.sent++;
      const failure = await oneRequest(client, n, o.cookies, o.apiAnswer);
      if (failure) figures.failed.push(failure);
    }
  });
  const hooks = (async () => {
    while (running()) {
      await deliverWebhook(client, o.userId, o.webhookSecret, figures);
      await sleep(300);
    }
  })();
  await Promise.all([...loops, hooks]);
}
