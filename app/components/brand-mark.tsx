import { cn } from "~/lib/utils";

/** The product's mark: a stylised F on a dark tile (also the favicon). */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn("shrink-0", className)}>
      <rect width="32" height="32" rx="7" fill="oklch(0.26 0.02 265)" />
      <path d="M9 8h14v4H13.5v3H21v4h-7.5v5H9z" fill="oklch(0.78 0.14 195)" />
    </svg>
  );
}
