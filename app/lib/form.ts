import { useState } from "react";
import type { z } from "zod";

import type { FieldErrors } from "~/domain/action-result";

export type { FieldErrors } from "~/domain/action-result";

type Parsed<S extends z.ZodType> = { success: true; data: z.output<S> } | { success: false; fieldErrors: FieldErrors };

/** Validates form data with a schema (browser and server alike); a repeated field keeps its last value. */
export function parseForm<S extends z.ZodType>(schema: S, formData: FormData): Parsed<S> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string") values[key] = value;
  return parseValues(schema, values);
}

/** Validates values read from a form (e.g. with repeated fields as arrays); errors per field, each once. */
export function parseValues<S extends z.ZodType>(schema: S, values: unknown): Parsed<S> {
  const result = schema.safeParse(values);
  if (result.success) return { success: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    const messages = (fieldErrors[key] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return { success: false, fieldErrors };
}

/**
 * Checks a form in the browser before it is sent, with the schema the action uses again;
 * the server's answer (field errors) replaces these when it comes back.
 */
export function useFormValidation<S extends z.ZodType>(schema: S, serverErrors?: FieldErrors | null) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const [lastServerErrors, setLastServerErrors] = useState(serverErrors);
  if (serverErrors !== lastServerErrors) {
    setLastServerErrors(serverErrors);
    setClientErrors(null);
  }
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const result = parseForm(schema, new FormData(event.currentTarget));
    if (!result.success) {
      event.preventDefault();
      setClientErrors(result.fieldErrors);
      return false;
    }
    setClientErrors(null);
    return true;
  };
  return { errors: clientErrors ?? serverErrors ?? {}, onSubmit };
}
