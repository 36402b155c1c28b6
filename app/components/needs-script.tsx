import { cn } from "~/lib/utils";
import { useHydrated } from "./use-hydrated";

/**
 * Said beside a button that works only with JavaScript (a checkout, a dialog, Paddle's overlay),
 * for as long as the scripts have not run: before they load, or when they are off (decision 0040). The
 * button is disabled exactly as long, so it is never greyed out without a reason.
 */
export function NeedsScript({ className }: { className?: string }) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <span data-testid="needs-script" className={cn("text-xs text-muted-foreground", className)}>
      Needs JavaScript
    </span>
  );
}
