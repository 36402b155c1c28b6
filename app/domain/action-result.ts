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

/** What the rules below read of an answer (pages add their own fields; a toast may be left out). */
export interface AnswerMessages {
  ok?: boolean;
  toast?: ToastInput | null;
  fieldErrors?: FieldErrors | null;
}

/** A result that carries a message for a field or for the form: the form says it. */
function hasFieldErrors(result: AnswerMessages): boolean {
  return Object.values(result.fieldErrors ?? {}).some((messages) => messages.length > 0);
}

/**
 * The toast to show for an action's answer, or null (docs/voice.md: an error is said inline or as a
 * toast, never both). A refusal that names fields or the form is said there, so it shows no toast;
 * `failuresShownHere`: the component says every refusal itself (a dialog that stays open with it).
 */
export function toastToShow(
  result: AnswerMessages | null | undefined,
  { failuresShownHere = false }: { failuresShownHere?: boolean } = {},
): ToastInput | null {
  if (!result?.toast) return null;
  const refusal = result.toast.variant === "destructive" || result.ok === false;
  if (refusal && (failuresShownHere || hasFieldErrors(result))) return null;
  return result.toast;
}

/**
 * The title of a refusal said at the top of its form ("Login Failed"): the title its toast would
 * have had, shown only beside the server's own form message (not a message the browser found).
 */
export function formErrorTitle(
  result: AnswerMessages | null | undefined,
  shown: string | undefined,
): string | undefined {
  if (!shown || !result?.toast || result.fieldErrors?.form?.[0] !== shown) return undefined;
  return result.toast.title === shown ? undefined : result.toast.title;
}
