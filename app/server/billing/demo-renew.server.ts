import { timingSafeEqual } from "node:crypto";
import type { DemoProvider, RenewOutcome } from "./demo-provider.server";

/**
 * What `npm run demo:renew` asks for: one subscription, or every live one; with `--fail`, one
 * subscription's renewal is declined instead (it becomes past due until a later renewal).
 */
export type DemoRenewTarget = { all: true } | { subscriptionId: string; fail?: boolean };

const SUBSCRIPTION_ID = /^sub_[A-Za-z0-9_]{1,100}$/;

export function parseRenewTarget(args: readonly string[]): DemoRenewTarget | null {
  if (args.length === 2 && args[0] === "--fail")
    return SUBSCRIPTION_ID.test(args[1]!) ? { subscriptionId: args[1]!, fail: true } : null;
  if (args.length !== 1) return null;
  const [arg] = args as [string];
  if (arg === "--all") return { all: true };
  return SUBSCRIPTION_ID.test(arg) ? { subscriptionId: arg } : null;
}

/** The target a request to /api/demo/renew names, or null when it names none. */
export function readRenewTarget(body: unknown): DemoRenewTarget | null {
  const { all, subscriptionId, fail } = (body ?? {}) as { all?: unknown; subscriptionId?: unknown; fail?: unknown };
  if (all === true && fail === undefined) return { all: true };
  if (typeof subscriptionId !== "string" || !SUBSCRIPTION_ID.test(subscriptionId)) return null;
  if (fail !== undefined && typeof fail !== "boolean") return null;
  return fail ? { subscriptionId, fail: true } : { subscriptionId };
}

export async function renewDemo(provider: DemoProvider, target: DemoRenewTarget): Promise<RenewOutcome[]> {
  if ("all" in target) return provider.renewAll();
  return [await (target.fail ? provider.failRenewal(target.subscriptionId) : provider.renew(target.subscriptionId))];
}

/** The command proves it runs beside the site by sending the demo webhook secret. */
export function isDemoCommandAuthorized(header: string | null, secret: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, "") ?? "");
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function describeOutcome(outcome: RenewOutcome): string {
  switch (outcome.outcome) {
    case "renewed":
      return `${outcome.subscriptionId}: renewed until ${outcome.periodEnd} (${outcome.transactionId})`;
    case "canceled":
      return `${outcome.subscriptionId}: its scheduled cancellation took effect; it will not renew`;
    case "payment-failed":
      return `${outcome.subscriptionId}: the renewal's payment failed (${outcome.transactionId}); the subscription is past due until a later demo:renew or a new payment method pays it`;
    default:
      return `${outcome.subscriptionId}: skipped, ${outcome.reason}`;
  }
}
