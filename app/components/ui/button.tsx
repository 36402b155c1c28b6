import type * as React from "react";
import { cn } from "~/lib/utils";
import { variants, type VariantProps } from "~/lib/variants";
import { Slot } from "./slot";

export const buttonVariants = variants(
  // The shared part is the `btn` class in app.css (decision 0087).
  "btn",
  {
    variant: {
      default: "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90",
      // A darker red than text-destructive (app.css), so its white label keeps 4.5:1 (axe color-contrast).
      destructive:
        "bg-destructive-strong text-destructive-foreground shadow-xs hover:bg-destructive-stronger focus-visible:ring-destructive/40",
      outline: "border border-input bg-transparent shadow-xs hover:bg-accent hover:text-accent-foreground",
      secondary: "bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80",
      ghost: "hover:bg-accent hover:text-accent-foreground",
      link: "text-primary underline underline-offset-4",
    },
    size: {
      default: "h-9 px-4 py-2 has-svg:px-3",
      sm: "h-8 gap-1.5 rounded-md px-3 has-svg:px-2.5",
      lg: "h-11 rounded-md px-6 text-base has-svg:px-4",
      icon: "size-9",
    },
  },
  { variant: "default", size: "default" },
);

export function Button({
  className,
  variant,
  size,
  asChild = false,
  ...props
}: React.ComponentProps<"button"> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
  const Comp = asChild ? Slot : "button";
  return <Comp data-slot="button" className={cn(buttonVariants({ variant, size, className }))} {...props} />;
}
