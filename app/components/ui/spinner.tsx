import { Loader2 } from "~/components/lucide-icons";
import type * as React from "react";
import { cn } from "~/lib/utils";

export function Spinner({ className, "aria-label": label = "Loading", ...props }: React.ComponentProps<"svg">) {
  return <Loader2 role="status" aria-label={label} className={cn("size-4 animate-spin", className)} {...props} />;
}
