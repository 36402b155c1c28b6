import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { useActionToast } from "../use-action-toast";
import { useHydrated } from "../use-hydrated";

/**
 * A license card's fetcher for the licenses action, its answer shown as a toast. It lives in the
 * card, not in a section, so the toast still shows when the answer hides the section (a refund).
 */
export function useLicenseAction() {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : null);
  const submit = (intent: string, licenseId: string, fields: Record<string, string> = {}) =>
    fetcher.submit({ ...fields, intent, licenseId }, { method: "post", action: "/licenses" });
  // The dialogs need JavaScript: their buttons wait for it rather than ignoring an early click.
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  // Only the button whose action runs shows a spinner; the card's other buttons just wait.
  const pendingIntent = busy ? String(fetcher.formData?.get("intent") ?? "") : null;
  return { fetcher, submit, busy, pendingIntent, hydrated, disabled: busy || !hydrated };
}

export type LicenseAction = ReturnType<typeof useLicenseAction>;
