import type * as React from "react";
import { cn } from "~/lib/utils";

/**
 * The browser's own select, styled like Input: it works without JavaScript and on every phone. As
 * wide as its box and never wider, whatever its longest option (a long label would otherwise push a
 * form past a phone's screen).
 */
export function NativeSelect({ className, ...props }: React.ComponentProps<"select">) {
  return (
    <select
      data-slot="native-select"
      className={cn(
        "h-9 w-full min-w-0 max-w-full truncate rounded-md border border-input bg-transparent px-3 text-sm",
        "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 outline-none",
        "aria-invalid:border-destructive aria-invalid:ring-destructive/30",
        className,
      )}
      {...props}
    />
  );
}
