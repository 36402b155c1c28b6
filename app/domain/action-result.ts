/** How an answer is shown: a toast's title, text and style ("destructive" is the error style). */
export type ToastVariant = "default" | "success" | "destructive";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

/** Messages per form field ("form" for the whole form), as the server and the browser check them. */
export type FieldErrors = Record<string, string[]>;

/**
 * What an action that stays on its page answers: the toast to show (or none) and the fields' errors.
 * Pages add their own fields (e.g. the address a reset link went to).
 */
export interface ActionResult {
  ok?: boolean;
  toast: ToastInput | null;
  fieldErrors?: FieldErrors | null;
}
