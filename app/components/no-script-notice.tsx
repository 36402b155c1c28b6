import type { ToastInput } from "~/domain/action-result";
import { cn } from "~/lib/utils";

/**
 * An answer shown as a toast once the scripts run, printed on the page for a browser without
 * JavaScript (where no toast ever appears): what was done, or why not. Inside <noscript>, so a
 * browser with scripts never shows it twice.
 */
export function NoScriptNotice({ toast, className }: { toast: ToastInput | null | undefined; className?: string }) {
  if (!toast) return null;
  const failed = toast.variant === "destructive";
  return (
    <noscript>
      <div
        role={failed ? "alert" : "status"}
        data-testid="no-script-notice"
        className={cn(
          "rounded-md border px-4 py-3 text-sm",
          failed ? "border-destructive/50 bg-destructive/10" : "border-primary/40 bg-primary/10",
          className,
        )}
      >
        <p className="font-medium">{toast.title}</p>
        {toast.description ? <p className="mt-1 text-muted-foreground">{toast.description}</p> : null}
      </div>
    </noscript>
  );
}
