import { timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { normalizeShortId } from "~/domain/short-id";
import { getDb } from "../../db/db.server";
import { licenses } from "../../db/schema";
import type { DemoProvider, RenewOutcome } from "./demo-provider-type.server";
import { ProviderError } from "../payment-provider.server";

/**
 * What `npm run demo:renew` asks for: one subscription, or every live one; with `--fail`, one
 * subscription's renewal is declined instead (it becomes past due until a later renewal). A
 * subscription can be named by its id (sub_…) or by its license's short id (FK-XXXX-XXXX), which
 * the billing history shows.
 */
export type DemoRenewTarget =
  | { all: true }
  /** `subscriptionId`: a subscription id (sub_…) or a license's canonical short id (FK-…). */
  | { subscriptionId: string; fail?: boolean };

const SUBSCRIPTION_ID = /^sub_[A-Za-z0-9_]{1,100}$/;

/** A subscription id, or a license's short id as typed (normalized); null for anything else. */
function subscriptionOrLicense(arg: string): string | null {
  if (SUBSCRIPTION_ID.test(arg)) return arg;
  return /^FK[\s-]?/i.test(arg.trim()) ? normalizeShortId(arg) : null;
}

export function parseRenewTarget(args: readonly string[]): DemoRenewTarget | null {
  const fail = args.length === 2 && args[0] === "--fail";
  if (args.length !== 1 && !fail) return null;
  const arg = args[args.length - 1]!;
  if (arg === "--all") return fail ? null : { all: true };
  const subscriptionId = subscriptionOrLicense(arg);
  if (!subscriptionId) return null;
  return fail ? { subscriptionId, fail: true } : { subscriptionId };
}

/** The target a request to /api/demo/renew names, or null when it names none. */
export function readRenewTarget(body: unknown): DemoRenewTarget | null {
  const { all, subscriptionId, fail } = (body ?? {}) as { all?: unknown; subscriptionId?: unknown; fail?: unknown };
  if (all === true && fail === undefined) return { all: true };
  if (typeof subscriptionId !== "string") return null;
  const target = subscriptionOrLicense(subscriptionId);
  if (!target) return null;
  if (fail !== undefined && typeof fail !== "boolean") return null;
  return fail ? { subscriptionId: target, fail: true } : { subscriptionId: target };
}

/** The demo subscription a license (by short id) is paid by. */
async function subscriptionOfLicense(shortId: string): Promise<string> {
  const [license] = await getDb()
    .select({ subscriptionId: licenses.paddle_subscription_id })
    .from(licenses)
    .where(eq(licenses.short_id, shortId));
  if (!license?.subscriptionId) throw new ProviderError(`no license ${shortId} with a subscription`);
  return license.subscriptionId;
}

export async function renewDemo(provider: DemoProvider, target: DemoRenewTarget): Promise<RenewOutcome[]> {
  if ("all" in target) return provider.renewAll();
  const subscriptionId = SUBSCRIPTION_ID.test(target.subscriptionId)
    ? target.subscriptionId
    : await subscriptionOfLicense(target.subscriptionId);
  return [await (target.fail ? provider.failRenewal(subscriptionId) : provider.renew(subscriptionId))];
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
