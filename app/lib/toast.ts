import { toast } from "sonner";

export type ToastVariant = "default" | "success" | "destructive";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

/** Shows a toast with a title and an optional description; "destructive" is the error style. */
export function showToast({ title, description, variant = "default" }: ToastInput): void {
  const options = { description };
  if (variant === "destructive") toast.error(title, options);
  else if (variant === "success") toast.success(title, options);
  else toast(title, options);
}
