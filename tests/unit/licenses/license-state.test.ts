import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { summarizeLicense } from "~/domain/license-card";
import {
  auditLicenseState,
  LICENSE_STATE_NAMES,
  LICENSE_STATE_TABLE,
  licenseState,
  licenseStateCode,
  licenseStateText,
  licenseStateWord,
} from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { paymentProblemLines, supportView } from "~/domain/license-support";
import { accessEndsAt } from "~/domain/past-due";
import type { License, NewLicense } from "~/server/db/schema";
import {
  describeLicense,
  isOtherMachine,
  licenseCode,
  type Machine,
} from "~/server/license-api/validate-license.server";
import { demoLicenses } from "~/server/seed.server";

process.env.LICENSE_SECRET ??= "license-state-test-secret-0123456789abcdef";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

/** A stored license row as the database returns it, from a seeded (insert) row. */
function stored(row: NewLicense, index = 0): License {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
    short_id: `FK-TEST-${String(index).padStart(4, "0")}`,
    windows_username: null,
    computer_name: null,
    is_trial: false,
    trial_starts_at: null,
    trial_ends_at: null,
    auto_renew: false,
    cancellation_requested: false,
    cancellation_requested_at: null,
    paddle_subscription_id: null,
    purchase_date: null,
    refund_eligible_until: null,
    refunded: false,
    refund_amount: null,
    refunded_at: null,
    created_at: NOW,
    extended_months: 0,
    subscription_synced_at: null,
    past_due_since: null,
    payment_state_at: null,
    status: "active",
    start_date: NOW,
    ...row,
  } as License;
}

const seeded = demoLicenses("00000000-0000-4000-8000-0000000000aa", "demo@forgekit.example", NOW).map(stored);

type Row = [name: string, license: License, badge: string, line: string, code: string];

/** Every state the seed creates, in its order, and what every reader must say about it. */
const SEEDED: Row[] = [
  ["renewing monthly", seeded[0]!, "Active", "Active, renews on Jul 5, 2026 for $9.00", "VALID"],
  ["cancelled yearly", seeded[1]!, "Active", "Active until May 6, 2027; automatic renewal is cancelled", "VALID"],
  ["trial running", seeded[2]!, "Trial", "Active, trial until Jun 20, 2026", "VALID"],
  ["trial ended", seeded[3]!, "Trial Expired", "Trial Expired on Feb 22, 2026", "TRIAL_EXPIRED"],
  ["expired 6 months", seeded[4]!, "Expired", "Expired on May 29, 2026", "EXPIRED"],
  ["revoked", seeded[5]!, "Revoked", "Revoked: this license no longer works.", "REVOKED"],
  ["refund requested", seeded[6]!, "Refund requested", "Refund requested: it is being processed.", "REFUND_REQUESTED"],
  ["refunded", seeded[7]!, "Refunded", "Refunded on May 21, 2026", "REFUNDED"],
  ["tester", seeded[8]!, "Active", "Active, until Jul 14, 2026", "VALID"],
];

/** States the seed does not create but a license reaches (webhooks, a first-time buyer's trial). */
const OTHERS: Row[] = [
  [
    "renewal payment failed, in grace",
    stored({ ...seeded[0]!, end_date: at(-2), past_due_since: at(-2) }),
    "Payment failed",
    "Payment failed: active until Jun 27, 2026 unless a payment goes through",
    "VALID",
  ],
  [
    "renewal payment failed, paid time not over",
    stored({ ...seeded[0]!, past_due_since: at(-1) }),
    "Payment failed",
    "Payment failed: active until Jul 19, 2026 unless a payment goes through",
    "VALID",
  ],
  [
    "grace period over",
    stored({ ...seeded[0]!, end_date: at(-20), past_due_since: at(-20) }),
    "Expired",
    "Expired on May 26, 2026",
    "EXPIRED",
  ],
  [
    "plan trial that converts",
    stored({ ...seeded[0]!, is_trial: true, trial_ends_at: at(3), end_date: at(3) }),
    "Trial",
    "Active, trial until Jun 18, 2026; first charge $9.00 on Jun 18, 2026, then renews automatically",
    "VALID",
  ],
  [
    "refunded flag wins over a stale refund_requested status",
    stored({ ...seeded[6]!, refunded: true, refunded_at: at(-1) }),
    "Refunded",
    "Refunded on Jun 14, 2026",
    "REFUNDED",
  ],
  [
    "trial whose end date passed before its trial end",
    stored({ ...seeded[2]!, end_date: at(-1) }),
    "Expired",
    "Expired on Jun 14, 2026",
    "EXPIRED",
  ],
  ["not renewing", stored({ ...seeded[0]!, auto_renew: false }), "Active", "Active, until Jul 5, 2026", "VALID"],
  [
    "charged back (a payment disputed with the bank, decision 0056)",
    stored({ ...seeded[0]!, status: "revoked", charged_back_at: at(-1) }),
    "Charged back",
    "Revoked on Jun 14, 2026: a payment for it was disputed with the bank (a chargeback).",
    "REVOKED",
  ],
];

describe("licenseState: one state for the customer, support and the desktop tool", () => {
  it("the seed creates one license in each state of the table", () => {
    expect(seeded).toHaveLength(SEEDED.length);
  });

  it.each([...SEEDED, ...OTHERS])("%s", (_name, license, badge, line, code) => {
    const customer = summarizeLicense(licenseFacts(license), NOW);
    const admin = supportView(licenseFacts(license), NOW);
    expect(customer.badge.label).toBe(badge);
    expect(customer.line).toBe(line);
    expect({ badge: admin.state.badge, line: admin.state.line }).toEqual({
      badge: customer.badge,
      line: customer.line,
    });
    expect(admin.state.code).toBe(code);
    expect(admin.details.find((d) => d.label === "Desktop API code")?.value).toBe(code);
    expect(describeLicense(license, {}, NOW).code).toBe(code);
    expect(licenseState(licenseFacts(license), NOW).code).toBe(code);
  });

  it("the admin never sees a refunded, expired or failing license as plain active", () => {
    for (const [, license] of [...SEEDED, ...OTHERS]) {
      const { state } = supportView(licenseFacts(license), NOW);
      if (state.code !== "VALID") expect(state.badge.label).not.toBe("Active");
      if (license.past_due_since && state.code === "VALID") expect(state.line).not.toMatch(/renews/);
    }
  });

  it("every state of the table is reached, and its table row is what licenseState returns", () => {
    const reached = new Set([...SEEDED, ...OTHERS].map(([, l]) => licenseState(licenseFacts(l), NOW).state));
    expect([...reached].sort()).toEqual([...LICENSE_STATE_NAMES].sort());
    for (const [, license] of [...SEEDED, ...OTHERS]) {
      const state = licenseState(licenseFacts(license), NOW);
      const row = LICENSE_STATE_TABLE[state.state];
      expect({ kind: state.kind, badge: state.badge, code: state.code }).toEqual({
        kind: row.kind,
        badge: row.badge,
        code: row.code,
      });
    }
  });

  it("names the next charge only when one is coming", () => {
    expect(licenseState(licenseFacts(seeded[0]!), NOW).nextChargeCents).toBe(900);
    expect(licenseState(licenseFacts(OTHERS[3]![1]), NOW).nextChargeCents).toBe(900);
    for (const index of [1, 2, 3, 4, 5, 6, 7, 8])
      expect(licenseState(licenseFacts(seeded[index]!), NOW).nextChargeCents).toBeNull();
  });

  it("gives the words exports and e-mails use", () => {
    expect(licenseStateWord(licenseFacts(seeded[7]!), NOW)).toBe("refunded");
    expect(licenseStateWord(licenseFacts(OTHERS[0]![1]), NOW)).toBe("payment failed");
    expect(licenseStateText(licenseFacts(seeded[7]!), NOW)).toBe("Refunded on May 21, 2026");
    expect(licenseStateText(licenseFacts(OTHERS[0]![1]), NOW)).toBe(
      "Payment failed: active until Jun 27, 2026 unless a payment goes through",
    );
    expect(licenseStateText(licenseFacts(seeded[6]!), NOW)).toBe("Refund requested: it is being processed.");
    expect(licenseStateText(licenseFacts(seeded[5]!), NOW)).toBe("Revoked: this license no longer works.");
  });
});

describe("auditLicenseState: what the audit log (and its CSV) records", () => {
  it("is the customer's badge and line and the desktop code", () => {
    expect(auditLicenseState(licenseFacts(OTHERS[0]![1]), NOW)).toEqual({
      license_state: "Payment failed",
      license_status_line: "Payment failed: active until Jun 27, 2026 unless a payment goes through",
      desktop_code: "VALID",
    });
    expect(auditLicenseState(licenseFacts(seeded[6]!), NOW)).toMatchObject({
      license_state: "Refund requested",
      desktop_code: "REFUND_REQUESTED",
    });
  });
});

describe("supportView: the admin's support details", () => {
  it("names the subscription, the renewal, the grace end, the payment method and the refund window", () => {
    const failing = { ...licenseFacts(OTHERS[0]![1]), payment_method: "Visa •••• 4242" };
    expect(supportView(failing, NOW).details).toEqual([
      { label: "Subscription", value: "sub_demo_seed_renewing" },
      { label: "Renewal", value: "Renewal payment failed; the provider retries" },
      { label: "Grace period ends", value: "Jun 27, 2026" },
      { label: "Payment method", value: "Visa •••• 4242" },
      { label: "Refund window", value: "Open until Jun 19, 2026" },
      { label: "Desktop API code", value: "VALID" },
    ]);
    const values = (license: License) =>
      Object.fromEntries(supportView(licenseFacts(license), NOW).details.map((d) => [d.label, d.value]));
    expect(values(seeded[0]!)).toMatchObject({ Renewal: "Renews on Jul 5, 2026", "Payment method": "Not on file" });
    expect(values(seeded[1]!)).toMatchObject({
      Renewal: "Cancelled, ends on May 6, 2027",
      "Refund window": "Closed on May 20, 2026",
      "Grace period ends": "Not past due",
    });
    expect(values(seeded[7]!)).toMatchObject({ Renewal: "Stopped", "Desktop API code": "REFUNDED" });
    expect(values(seeded[8]!)).toMatchObject({
      Subscription: "None",
      Renewal: "No subscription",
      "Refund window": "None",
    });
    expect(values(stored({ ...seeded[0]!, auto_renew: false }))).toMatchObject({ Renewal: "Not renewing" });
  });
});

/** The desktop API's rule as it stood before the state table (decision 0018), to prove no code changed meaning. */
function previousLicenseCode(license: License, machine: Machine, now: Date): string {
  if (license.status === "revoked") return "REVOKED";
  if (license.status === "refunded" || license.refunded) return "REFUNDED";
  if (license.status === "refund_requested") return "REFUND_REQUESTED";
  if (isOtherMachine(license, machine)) return "MACHINE_MISMATCH";
  if (license.is_trial && license.trial_ends_at && license.trial_ends_at <= now) return "TRIAL_EXPIRED";
  if (accessEndsAt(license) <= now) return "EXPIRED";
  return "VALID";
}

describe("licenseCode through the state table", () => {
  it("property: every license, machine and moment gets the code the previous rule gave (and the state's code)", () => {
    const offset = fc.integer({ min: -60, max: 60 }).map((days) => at(days));
    const maybe = fc.option(offset, { nil: null });
    const arb = fc.record({
      status: fc.constantFrom("active", "revoked", "refund_requested", "refunded"),
      license_type: fc.constantFrom("monthly", "6_months", "yearly", "tester", "trial"),
      end_date: offset,
      is_trial: fc.boolean(),
      trial_ends_at: maybe,
      auto_renew: fc.boolean(),
      cancellation_requested: fc.boolean(),
      paddle_subscription_id: fc.option(fc.constant("sub_x"), { nil: null }),
      refunded: fc.boolean(),
      past_due_since: maybe,
      windows_username: fc.option(fc.constantFrom("dana", "DANA", "eve"), { nil: null }),
      computer_name: fc.option(fc.constantFrom("pc-1", "pc-2"), { nil: null }),
    });
    const machineArb = fc.record({
      windows_username: fc.option(fc.constantFrom("dana", "eve"), { nil: undefined }),
      computer_name: fc.option(fc.constantFrom("PC-1", "pc-2"), { nil: undefined }),
    });
    fc.assert(
      fc.property(arb, machineArb, (row, machine) => {
        const license = stored({ ...seeded[0]!, ...row, start_date: at(-100) });
        expect(licenseCode(license, machine, NOW)).toBe(previousLicenseCode(license, machine, NOW));
        // The API's shortcut decides as licenseState does, without formatting the customer's line.
        expect(licenseStateCode(licenseFacts(license), NOW)).toBe(licenseState(licenseFacts(license), NOW).code);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("paymentProblemLines: a failed payment explained to support", () => {
  it("says when it failed, that the reason is not stored, the grace end and the customer's Update payment method", () => {
    const failing = { ...licenseFacts(OTHERS[0]![1]), short_id: "FK-TEST-0000" };
    expect(supportView(failing, NOW).paymentProblem).toEqual([
      "The renewal charge failed on Jun 13, 2026.",
      "Decline reason: not available (the provider's failure event is not stored, or named none).",
      "The provider retries the charge automatically until Jun 27, 2026; it does not announce the dates of its retries. If no payment goes through by then, the license stops working and its subscription ends.",
      'What the customer does: on /licenses, "Update payment method" on the card of license FK-TEST-0000; the renewal is charged at once and the license runs on.',
    ]);
  });

  it("names the provider's reason when it is known, says when the grace period is over, and is null when paid up", () => {
    const failing = { ...licenseFacts(OTHERS[0]![1]), decline_reason: "insufficient funds" };
    expect(paymentProblemLines(failing, NOW)).toContain("Decline reason from the provider: insufficient funds.");
    const retried = { ...failing, failed_attempts: 3, last_failed_attempt_at: "2026-06-14T08:00:00.000Z" };
    expect(paymentProblemLines(retried, NOW)![1]).toBe("Declined attempts so far: 3, the last on Jun 14, 2026.");
    expect(paymentProblemLines({ ...failing, failed_attempts: 0 }, NOW)!.join(" ")).not.toContain("attempts so far");
    expect(paymentProblemLines(licenseFacts(OTHERS[2]![1]), NOW)).toContain(
      "The license stopped working on Jun 9, 2026: no payment went through in the grace period.",
    );
    expect(paymentProblemLines(licenseFacts(seeded[0]!), NOW)).toBeNull();
    expect(supportView(licenseFacts(seeded[0]!), NOW).paymentProblem).toBeNull();
  });
});
