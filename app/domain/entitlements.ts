/**
 * Entitlements: the features of the desktop tool a license unlocks. Each row of the plan table
 * (plans.ts) names its own; the validation answer and the license file carry them, and the pricing
 * page and the license card name them with these labels. A license's entitlements are read from the
 * table when an answer is made, never stored: adding one to a plan reaches every tool at its next
 * validation (docs/desktop-api.md).
 */

/** Every entitlement the site knows, in the order answers list them. */
export const ENTITLEMENTS = ["generate", "batch", "cli"] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

/** What the pricing page and the license card call each one. */
export const ENTITLEMENT_LABELS: Record<Entitlement, string> = {
  generate: "Component generation",
  batch: "Batch generation",
  cli: "Command-line generation",
};

export function isEntitlement(value: unknown): value is Entitlement {
  return typeof value === "string" && (ENTITLEMENTS as readonly string[]).includes(value);
}

/** The entitlements given, without repeats, in the table's order. */
export function inTableOrder(given: readonly Entitlement[]): Entitlement[] {
  return ENTITLEMENTS.filter((entitlement) => given.includes(entitlement));
}

/** The labels of a list of entitlements, in the table's order. */
export function entitlementLabels(given: readonly Entitlement[]): string[] {
  return inTableOrder(given).map((entitlement) => ENTITLEMENT_LABELS[entitlement]);
}

export const UNKNOWN_ENTITLEMENT = "unknown_entitlement";

/**
 * A list of entitlement names a request sent: every one must be known. Returns the list in the
 * table's order, or the first unknown name (a request naming a feature the site does not have is a
 * bug in the tool: it is told which, and nothing is recorded).
 */
export function readEntitlementList(
  value: unknown,
): { ok: true; entitlements: Entitlement[] } | { ok: false; unknown: boolean; message: string } {
  if (!Array.isArray(value) || value.length === 0 || value.length > ENTITLEMENTS.length * 4) {
    return {
      ok: false,
      unknown: false,
      message: `entitlements must be a list of 1 to ${ENTITLEMENTS.length * 4} names.`,
    };
  }
  const unknown = value.find((name) => !isEntitlement(name));
  if (unknown !== undefined) {
    const shown = typeof unknown === "string" ? `"${unknown.slice(0, 40)}"` : "a value that is not a name";
    return {
      ok: false,
      unknown: true,
      message: `entitlements names ${shown}, which is not an entitlement: use ${ENTITLEMENTS.join(", ")}.`,
    };
  }
  return { ok: true, entitlements: inTableOrder(value as Entitlement[]) };
}
