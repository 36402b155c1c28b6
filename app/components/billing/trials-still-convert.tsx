import { Info } from "~/components/lucide-icons";
import { cn } from "~/lib/utils";

/**
 * Buying another license while a trial runs (decision 0037): each running trial still converts on its own
 * date; the pricing page and both checkouts say so, so a new purchase is never taken for the trial's.
 */
export function TrialsStillConvert({ notices, className }: { notices: readonly string[]; className?: string }) {
  if (notices.length === 0) return null;
  return (
    <div
      role="note"
      data-testid="trial-still-converts"
      className={cn(
        "flex items-start gap-2 rounded-md border border-primary/40 bg-primary/5 px-3 py-2 text-left text-sm",
        className,
      )}
    >
      <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
      <div className="flex flex-col gap-1">
        {notices.map((notice) => (
          <p key={notice}>{notice}</p>
        ))}
      </div>
    </div>
  );
}
