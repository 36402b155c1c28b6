import { useEffect } from "react";
import { showToast, type ToastInput } from "~/lib/toast";

/** Shows the toast an action returned (actions that stay on their page). */
export function useActionToast(actionData: { toast?: ToastInput | null } | undefined | null): void {
  useEffect(() => {
    if (actionData?.toast) showToast(actionData.toast);
  }, [actionData]);
}
