import { cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { cn } from "~/lib/utils";

/**
 * Renders its only child with the given props merged in (the child's own props win, class
 * names are joined): how `asChild` turns a Button into a styled link.
 */
export function Slot({
  children,
  className,
  ...props
}: {
  children?: ReactNode;
  className?: string;
  [key: string]: unknown;
}) {
  if (!isValidElement(children)) return null;
  const child = children as ReactElement<{ className?: string }>;
  return cloneElement(child, { ...props, ...child.props, className: cn(className, child.props.className) });
}
