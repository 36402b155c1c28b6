import { useEffect } from "react";
import { showToast, type ToastInput } from "~/lib/toast";

/** Shows the toast an action attached to its redirect (read by the root loader). */
export function useFlashToast(toast: ToastInput | null | undefined): void {
  useEffect(() => {
    if (toast) showToast(toast);
  }, [toast]);
}
