import type * as React from "react";
import { cn } from "~/lib/utils";
import { variants, type VariantProps } from "~/lib/variants";
import { Slot } from "./slot";

export const badgeVariants = variants(
  // The shared part is the `badge` class in app.css (decision 0087).
  "badge",
  {
    variant: {
      default: "border-transparent bg-primary text-primary-foreground",
      secondary: "border-transparent bg-secondary text-secondary-foreground",
      destructive: "border-destructive/40 bg-destructive/15 text-[oklch(0.8_0.12_25)]",
      outline: "border-border text-foreground",
      success: "border-success/40 bg-success/15 text-success",
      warning: "border-warning/40 bg-warning/15 text-warning",
      info: "border-primary/40 bg-primary/15 text-primary",
    },
  },
  { variant: "default" },
);

export function Badge({
  className,
  variant,
  asChild = false,
  ...props
}: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants> & { asChild?: boolean }) {
  const Comp = asChild ? Slot : "span";
  return <Comp data-slot="badge" className={cn(badgeVariants({ variant }), className)} {...props} />;
}
