import { timingSafeEqual } from "node:crypto";
import type { DemoProvider, RenewOutcome } from "./demo-provider.server";

/** What `npm run demo:renew` asks for: one subscription, or every live one. */
export type DemoRenewTarget = { all: true } | { subscriptionId: string };

export function parseRenewTarget(args: readonly string[]): DemoRenewTarget | null {
  if (args.length !== 1) return null;
  const [arg] = args as [string];
  if (arg === "--all") return { all: true };
  return /^sub_[A-Za-z0-9_]+$/.test(arg) ? { subscriptionId: arg } : null;
}

export async function renewDemo(provider: DemoProvider, target: DemoRenewTarget): Promise<RenewOutcome[]> {
  return "all" in target ? provider.renewAll() : [await provider.renew(target.subscriptionId)];
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
    default:
      return `${outcome.subscriptionId}: skipped, ${outcome.reason}`;
  }
}
