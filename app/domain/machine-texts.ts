import { formatDate } from "./format-date";
import type { LicenseLeasesView } from "./leases";
import { DEACTIVATION_WINDOW_DAYS, machinesPhrase, type MachineLimits } from "./machines";
import { PLAN_IDS, type PlanId } from "./plans";

/** A machine as the licenses page and the admin's user page show it (dates as ISO strings). */
export interface MachineView {
  id: string;
  name: string;
  platform: string | null;
  app_version: string | null;
  activated_at: string;
  last_seen_at: string;
}

/** A license's machines on its card: the active ones, the limit, and the self-service deactivations left. */
export interface LicenseMachinesView {
  machines: MachineView[];
  limit: number;
  deactivationsPerWindow: number;
  deactivationsLeft: number;
  /** When no deactivation is left: when the next one is possible (ISO). */
  nextDeactivationAt: string | null;
  /** A plan with floating use (decision 0069): its leases at once and the live ones; absent for the others. */
  floating?: LicenseLeasesView;
}

/** The intent of the "Deactivate" forms (the licenses page's and the admin's). */
export const DEACTIVATE_MACHINE = "deactivate-machine";

/** The texts of machines, for the page, the API and the tests. */
export const MACHINE_TEXTS = {
  sectionTitle: "Machines",
  none: "No machine is activated yet. Open the tool and enter your license key: it activates this computer.",
  used: (active: number, limit: number) => `${active} of ${machinesPhrase(limit)} active`,
  deactivate: "Deactivate",
  confirmTitle: (name: string) => `Deactivate ${name}?`,
  confirmBody:
    "The tool on that computer stops working until it is activated again, which frees a seat for another machine.",
  rule: (perWindow: number) =>
    `You can deactivate ${machinesPhrase(perWindow)} per license every ${DEACTIVATION_WINDOW_DAYS} days.`,
  left: (left: number) => `${left} deactivation${left === 1 ? "" : "s"} left now.`,
  deactivated: (name: string) => `${name} was deactivated. Its seat is free.`,
  notActive: "That machine is no longer active on this license.",
  failed: "Could not deactivate the machine. Please try again.",
  adminDeactivated: (name: string) =>
    `${name} was deactivated (audited; it does not count toward the customer's limit).`,
  /** Past the self-service limit: when the next one is possible, and that support can help sooner. */
  limitReached: (perWindow: number, nextAt: Date | string, supportEmail: string) =>
    `You have used the ${perWindow} deactivation${perWindow === 1 ? "" : "s"} allowed every ${DEACTIVATION_WINDOW_DAYS} days for this license. The next one is possible on ${formatDate(nextAt)}. Support can help sooner: write to ${supportEmail}.`,
  pricingLine: (count: number) => `Use it on ${machinesPhrase(count)} at once`,
};

/**
 * What one paid license covers, from the same machine limits as the plan cards (MACHINES_PER_PLAN):
 * the pricing questions and the terms say it in these words, so they never contradict the cards.
 */
export function licenseCoverage(limits: Pick<MachineLimits, PlanId>): string {
  const counts = new Set(PLAN_IDS.map((plan) => limits[plan]));
  if (counts.size === 1) {
    const [count] = [...counts] as [number];
    return `One person, on up to ${count} Windows computer${count === 1 ? "" : "s"} at once.`;
  }
  return "One person, on as many Windows computers at once as the plan's card says.";
}

/** One license's machines on the admin's user page. */
export interface AdminLicenseMachines extends LicenseMachinesView {
  licenseId: string;
  shortId: string;
  licenseType: string;
}

/** Days of activations the admin overview shows. */
export const MACHINE_OVERVIEW_DAYS = 30;

/** The admin overview's machines: active now, and activations per UTC day for the last 30 days (oldest first). */
export interface MachinesOverviewView {
  active: number;
  activationsPerDay: { day: string; count: number }[];
}
