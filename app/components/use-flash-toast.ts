import { useEffect } from "react";
import type { ToastInput } from "~/lib/toast";

/** Shows the toast an action attached to its redirect (read by the root loader). */
export function useFlashToast(toast: ToastInput | null | undefined): void {
  useEffect(() => {
    // Loaded on demand: most page loads carry no toast.
    if (toast) void import("~/lib/toast").then(({ showToast }) => showToast(toast));
  }, [toast]);
}
