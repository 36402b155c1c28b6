import { data } from "react-router";
import type { ActionResult, FieldErrors } from "~/domain/action-result";
import { RATE_LIMIT_MESSAGE } from "./auth/rate-limit.server";

/**
 * The failed answer of an action that stays on its page: a destructive toast, the same text as the
 * form's error (unless `formError` is false), the status, and the page's own fields (`extra`).
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

/** Too many attempts: 429 with Retry-After and the limit's text, in the page's shape. */
export function rateLimited<Extra extends object = object>(title: string, retryAfter: number, extra?: Extra) {
  return failure(429, { title, description: RATE_LIMIT_MESSAGE }, extra, { "Retry-After": String(retryAfter) });
}
