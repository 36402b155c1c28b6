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
 * The error toasts on screen, with the page (path) each is about: a failure of one page is not
 * carried onto the next (decision 0057), see `dismissStaleToasts`.
 */
const pageErrors = new Map<string | number, string>();
const currentPath = () => (typeof window === "undefined" ? "" : window.location.pathname);

/**
 * Shows a toast with a title and an optional description; "destructive" is the error style.
 * Toasts asked for before the toaster has loaded are shown as soon as it has. An error toast
 * belongs to the page it was shown on and goes when the person leaves it, unless it is said about
 * the page a navigation is about to open (`forPage`: "this reset link has expired" on the way to
 * /forgot-password); an error about a page already left is not shown at all.
 */
export function showToast(
  { title, description, variant = "default" }: ToastInput,
  { forPage }: { forPage?: string } = {},
): void {
  const page = forPage ?? currentPath();
  void ready
    .then(() => import("sonner"))
    .then(({ toast }) => {
      const options = { description };
      if (variant !== "destructive") {
        if (variant === "success") toast.success(title, options);
        else toast(title, options);
        return;
      }
      if (!forPage && currentPath() !== page) return;
      const forget = ({ id }: { id: string | number }) => pageErrors.delete(id);
      pageErrors.set(toast.error(title, { ...options, onDismiss: forget, onAutoClose: forget }), page);
    });
}

/** Takes away the error toasts of pages other than the one now shown (the root calls it on every navigation). */
export function dismissStaleToasts(pathname: string): void {
  if (pageErrors.size === 0) return;
  void import("sonner").then(({ toast }) => {
    for (const [id, page] of pageErrors) {
      if (page === pathname) continue;
      toast.dismiss(id);
      pageErrors.delete(id);
    }
  });
}
