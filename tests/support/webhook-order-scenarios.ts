import fc from "fast-check";
import type { TestApp } from "./test-app";

// The webhook delivery-order property (tests/integration/billing/payment-webhook-order.property.test.ts): the
// lifecycles it generates (the in-order stream of each: webhook-order-stream.ts).

type Plan = "monthly" | "yearly";
type StepKind =
  "renew" | "cancel" | "reenable" | "end" | "refund-approved" | "refund-rejected" | "refund-pending" | "extend";
export interface LicenseScenario {
  plan: Plan;
  trial: boolean;
  steps: { kind: StepKind; gapHours: number; months: number; years: number }[];
}

/** The checkout the server created for a license's purchase (it decides the trial). */
export interface PurchaseCheckout {
  license: number;
  txnKey: string;
  plan: Plan;
  trial: boolean;
  priceId: string;
  amountCents: number;
}

/** One event of the in-order stream, built for a world (a set of users and ids) when delivered. */
export interface AbstractEvent {
  key: string;
  license: number;
  type: string;
  at: Date;
  /** The license-creating purchase (extensions name the license, so they always come after it). */
  purchase?: boolean;
  /** An event that is always delivered before this one's first delivery (see `causal`). */
  after?: string;
  data: (world: World) => Promise<unknown>;
}

export interface World {
  /** The database the world's users live in. */
  db: () => TestApp["database"]["db"];
  tag: string;
  users: { id: string; email: string }[];
  subscriptionId: (license: number) => string;
  id: (prefix: string, key: string) => string;
}

const stepArb = fc.record({
  kind: fc.constantFrom<StepKind>(
    "renew",
    "renew",
    "cancel",
    "reenable",
    "end",
    "refund-approved",
    "refund-rejected",
    "refund-pending",
    "extend",
  ),
  gapHours: fc.integer({ min: 1, max: 24 }),
  months: fc.integer({ min: 0, max: 3 }),
  years: fc.integer({ min: 0, max: 1 }),
});
const licenseArb: fc.Arbitrary<LicenseScenario> = fc.record({
  plan: fc.constantFrom<Plan>("monthly", "yearly"),
  trial: fc.boolean(),
  steps: fc.array(stepArb, { maxLength: 6 }),
});
export const scenarioArb = fc.array(licenseArb, { minLength: 1, maxLength: 3 });
