import type * as React from "react";
import { cn } from "~/lib/utils";

/**
 * A disclosure that opens before JavaScript and without it: the browser's own <details> and
 * <summary> (decision 0040), keeping the shadcn names. `open` sets the first state; the browser keeps
 * the person's choice afterwards. A chevron inside the trigger turns with
 * `[[open]>summary>&]:rotate-180`.
 */
export function Collapsible({ className, ...props }: React.ComponentProps<"details">) {
  return <details data-slot="collapsible" className={cn(className)} {...props} />;
}

export function CollapsibleTrigger({ className, ...props }: React.ComponentProps<"summary">) {
  return (
    <summary
      data-slot="collapsible-trigger"
      className={cn(
        "cursor-pointer list-none rounded-md outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-solid focus-visible:outline-foreground [&::-webkit-details-marker]:hidden",
        className,
      )}
      {...props}
    />
  );
}

export function CollapsibleContent({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="collapsible-content" className={cn(className)} {...props} />;
}

/** The chevron's class: turned while its disclosure is open. */
export const CHEVRON_TURNS = "size-4 shrink-0 transition-transform [[open]>summary>&]:rotate-180";
