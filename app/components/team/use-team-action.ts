import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import type { PlanSwitchPreview } from "~/domain/plan-switch";
import type { SeatQuoteView } from "~/domain/team-page";
import { useActionToast } from "../use-action-toast";
import { useHydrated } from "../use-hydrated";

export type TeamAnswer = ActionResult & {
  quote?: SeatQuoteView;
  planChange?: { preview: PlanSwitchPreview; stamp: string };
};

/**
 * One team form's fetcher to the /team action, its answer shown as a toast. Each part of the page
 * has its own, so only the button that runs waits. A keyed one (`key`) is shared with its list, which
 * shows its toast even when the answer removes the card that asked (a seat claimed).
 */
export function useTeamAction(key?: string, toasts = true) {
  const fetcher = useFetcher<TeamAnswer>(key ? { key } : undefined);
  useActionToast(toasts && fetcher.state === "idle" ? fetcher.data : null);
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post", action: "/team" });
  return { fetcher, submit, busy, hydrated };
}

/**
 * Shows the answer of a keyed team fetcher from a component that outlives the row that submitted it;
 * `failuresShownHere`: the row says a refusal itself, so only successes are toasts.
 */
export function useTeamActionToast(key: string, options: { failuresShownHere?: boolean } = {}): void {
  const fetcher = useFetcher<TeamAnswer>({ key });
  useActionToast(fetcher.state === "idle" ? fetcher.data : null, options);
}
