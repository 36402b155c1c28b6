import { Check } from "~/components/lucide-icons";
import type * as React from "react";
import { cn } from "~/lib/utils";

type CheckboxProps = Omit<React.ComponentProps<"input">, "type" | "onChange"> & {
  onCheckedChange?: (checked: boolean) => void;
};

/**
 * A native checkbox, styled: it works (and is submitted with its form) before the scripts load
 * and without JavaScript, which a button-based checkbox cannot.
 */
export function Checkbox({ className, onCheckedChange, ...props }: CheckboxProps) {
  return (
    <span className={cn("relative inline-flex size-4 shrink-0", className)}>
      <input
        type="checkbox"
        data-slot="checkbox"
        className="peer size-4 shrink-0 cursor-pointer appearance-none rounded-[4px] border border-input bg-background/60 shadow-xs transition-shadow outline-none checked:border-primary checked:bg-primary focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive"
        onChange={(event) => onCheckedChange?.(event.currentTarget.checked)}
        {...props}
      />
      <Check
        aria-hidden
        data-slot="checkbox-indicator"
        className="pointer-events-none absolute inset-0 m-auto size-3.5 text-primary-foreground opacity-0 peer-checked:opacity-100"
      />
    </span>
  );
}
