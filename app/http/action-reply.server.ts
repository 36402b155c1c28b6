import { data } from "react-router";
import type { ActionResult, FieldErrors } from "~/domain/action-result";
import type { ActionOutcome } from "~/server/action-outcome.server";
import { RATE_LIMIT_MESSAGE } from "~/server/auth/rate-limit.server";

/**
 * The failed answer of an action that stays on its page: a destructive toast, the same text as the
 * form's error (unless `formError` is false), the status, and the page's own fields (`extra`). The
 * page says it once: in the form when the answer has field errors, else as the toast (`toastToShow`).
 */
export function failure<Extra extends object = object>(
  status: number,
  {
    title = "Error",
    description,
    fieldErrors,
    formError = true,
  }: { title?: string; description: string; fieldErrors?: FieldErrors; formError?: boolean },
  extra?: Extra,
  headers?: HeadersInit,
) {
  const errors = fieldErrors ?? (formError ? { form: [description] } : undefined);
  return data(
    {
      ...(extra as Extra),
      ok: false,
      toast: { title, description, variant: "destructive" as const },
      fieldErrors: errors,
    } satisfies ActionResult,
    { status, headers },
  );
}

/**
 * Too many attempts: 429 with Retry-After and the limit's text, in the page's shape; `formError`
 * false for a page with no form message to say it in (then it is a toast).
 */
export function rateLimited<Extra extends object = object>(
  title: string,
  retryAfter: number,
  extra?: Extra,
  { formError = true }: { formError?: boolean } = {},
) {
  return failure(429, { title, description: RATE_LIMIT_MESSAGE, formError }, extra, {
    "Retry-After": String(retryAfter),
  });
}

/** A service's outcome (app/server/action-outcome.server.ts) as the page's answer: its toast, or `failure`'s. */
export function outcomeReply<Extra extends object = object>(outcome: ActionOutcome<Extra>) {
  if (outcome.ok) {
    return data<ActionResult & Partial<Extra>>({
      ok: true,
      toast: { ...outcome.toast, variant: "success" },
      ...outcome.extra,
    } as ActionResult & Partial<Extra>);
  }
  const { status, description, fieldErrors, extra } = outcome;
  return failure(status, { description, fieldErrors, formError: false }, extra);
}
