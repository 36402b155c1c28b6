import { Toaster as Sonner, type ToasterProps } from "sonner";

/** The toaster: dark, bottom-right, titles with descriptions; see `showToast` in ~/lib/toast. */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      theme="dark"
      position="bottom-right"
      closeButton
      className="toaster group"
      toastOptions={{
        classNames: {
          toast: "!bg-popover !text-popover-foreground !border-border !shadow-xl",
          title: "!font-semibold",
          description: "!text-muted-foreground",
          error: "!border-destructive/60 [&_[data-title]]:!text-[oklch(0.82_0.1_25)]",
          success: "!border-success/50",
          closeButton: "!bg-popover !text-foreground !border-border",
        },
      }}
      {...props}
    />
  );
}
