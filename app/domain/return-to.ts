import { isPlanId, type PlanId } from "./plans";

/**
 * Where a visitor was going, carried through registration, the confirmation e-mail and sign-in as
 * `?redirectTo=` (docs/decisions/0024). The server follows only same-site paths (safeRedirect);
 * these helpers only build and read the addresses.
 */

/** `path` with `?redirectTo=` added, unless there is nowhere particular to go back to. */
export function withReturnTo(path: string, returnTo: string | null | undefined): string {
  if (!returnTo || returnTo === "/") return path;
  const separator = path.includes("?") ? "&" : "?";
  return `${path}${separator}redirectTo=${encodeURIComponent(returnTo)}`;
}

/** The pricing page with a plan's checkout to open once the visitor is signed in. */
export function pricingWithPlan(planId: PlanId): string {
  return `/pricing?plan=${planId}`;
}

/** Where a signed-out visitor who picks a plan is sent: registration, then back to that plan. */
export function registerForPlan(planId: PlanId): string {
  return withReturnTo("/register", pricingWithPlan(planId));
}

/** The plan the pricing page should open the checkout for (from `?plan=`), or null. */
export function planToOpen(search: URLSearchParams): PlanId | null {
  const plan = search.get("plan");
  return isPlanId(plan) ? plan : null;
}

/**
 * The plan a visitor chose before registering, read back from where registration returns to
 * (`/pricing?plan=yearly`, as registerForPlan builds it), or null for any other address.
 */
export function planOfReturnTo(returnTo: string | null | undefined): PlanId | null {
  if (!returnTo?.startsWith("/pricing?")) return null;
  return planToOpen(new URLSearchParams(returnTo.slice("/pricing?".length)));
}
