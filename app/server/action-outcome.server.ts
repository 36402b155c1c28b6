import type { FieldErrors, ToastInput } from "~/domain/action-result";

/**
 * What a service's action decided, as a value the route turns into HTTP (app/http/action-reply.server.ts):
 * done, with the success toast, or refused, with the status, the text and the fields it names. `extra`
 * is the page's own fields (an installer's digest, whether an older version asks for confirmation).
 */
export type ActionOutcome<Extra extends object = object> =
  | { ok: true; toast: Omit<ToastInput, "variant">; extra?: Extra }
  | { ok: false; status: number; description: string; fieldErrors?: FieldErrors; extra?: Extra };

export const done = <Extra extends object = object>(
  toast: Omit<ToastInput, "variant">,
  extra?: Extra,
): ActionOutcome<Extra> => ({ ok: true, toast, extra });

export const refused = <Extra extends object = object>(
  status: number,
  description: string,
  fieldErrors?: FieldErrors,
  extra?: Extra,
): ActionOutcome<Extra> => ({ ok: false, status, description, fieldErrors, extra });
