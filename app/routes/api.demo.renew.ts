import { getDemoProvider } from "~/server/billing/configured-provider.server";
import {
  isDemoCommandAuthorized,
  readRenewTarget,
  renewDemo,
  type DemoRenewTarget,
} from "~/server/billing/demo/demo-renew.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { getEnv } from "~/server/env.server";
import type { Route } from "./+types/api.demo.renew";

/**
 * `npm run demo:renew` talks to the running site here, so the embedded database is opened by
 * one process only. Exists only with the demo provider; the caller proves itself with the
 * demo webhook secret (kept in DATA_DIR/secrets.json, which only the operator can read).
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST")
    return Response.json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
  const demo = getDemoProvider();
  if (!demo) return Response.json({ error: "Not found" }, { status: 404 });
  if (!isDemoCommandAuthorized(request.headers.get("Authorization"), getEnv().DEMO_WEBHOOK_SECRET)) {
    return Response.json({ error: "Unauthorized" }, { status: 401 });
  }
  let target: DemoRenewTarget | null;
  try {
    target = readRenewTarget(await request.json());
  } catch {
    target = null;
  }
  if (!target) {
    return Response.json(
      { error: 'Send {"all": true} or {"subscriptionId": "sub_…"} (with "fail": true to decline its renewal)' },
      { status: 400 },
    );
  }
  try {
    return Response.json({ outcomes: await renewDemo(demo, target) });
  } catch (error) {
    if (error instanceof ProviderError) return Response.json({ error: error.message }, { status: 404 });
    throw error;
  }
}

export function loader() {
  return Response.json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
