import type { ToastInput } from "~/domain/action-result";

export type { ToastInput } from "~/domain/action-result";

let markReady: () => void = () => {};
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Called by the toaster when it has mounted (it is loaded after hydration). */
export function toasterMounted(): void {
  markReady();
}

/**
 * Shows a toast with a title and an optional description; "destructive" is the error style.
 * Toasts asked for before the toaster has loaded are shown as soon as it has.
 */
export function showToast({ title, description, variant = "default" }: ToastInput): void {
  void ready
    .then(() => import("sonner"))
    .then(({ toast }) => {
      const options = { description };
      if (variant === "destructive") toast.error(title, options);
      else if (variant === "success") toast.success(title, options);
      else toast(title, options);
    });
}
