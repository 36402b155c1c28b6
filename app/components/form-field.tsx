import type * as React from "react";
import { formErrorTitle, type AnswerMessages, type FieldErrors as FieldMessages } from "~/domain/action-result";
import { cn } from "~/lib/utils";
import { Input } from "./ui/input";
import { Label } from "./ui/label";

/** A labelled input with its error messages, wired for screen readers. */
export function FormField({
  id,
  label,
  errors,
  errorTitle,
  hint,
  className,
  ...inputProps
}: React.ComponentProps<typeof Input> & {
  id: string;
  label: React.ReactNode;
  errors?: string[] | null;
  /** A title the product gives the field's error ("Password Mismatch"), shown before it. */
  errorTitle?: string;
  hint?: React.ReactNode;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const hasErrors = Boolean(errors?.length);
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={hasErrors || undefined}
        aria-describedby={[hasErrors ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined}
        {...inputProps}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} title={errorTitle} />
    </div>
  );
}

export function FieldErrors({ id, errors, title }: { id?: string; errors?: string[] | null; title?: string }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="flex flex-col gap-1 text-sm text-[oklch(0.8_0.13_25)]">
      {errors.map((error) => (
        <li key={error}>
          {title ? (
            <strong className="font-semibold">{/[.!?]$/.test(title) ? `${title} ` : `${title}: `}</strong>
          ) : null}
          {error}
        </li>
      ))}
    </ul>
  );
}

/**
 * A form-level message (e.g. the server's refusal) announced to screen readers; `title` is the
 * product's title of that refusal ("Login Failed"), said here instead of in a toast.
 */
export function FormMessage({
  children,
  title,
  tone = "error",
}: {
  children?: React.ReactNode;
  title?: string;
  tone?: "error" | "info";
}) {
  if (!children) return null;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "rounded-md border px-3 py-2 text-sm",
        tone === "error"
          ? "border-destructive/50 bg-destructive/10 text-[oklch(0.85_0.09_25)]"
          : "border-primary/40 bg-primary/10 text-foreground",
      )}
    >
      {title ? <strong className="font-semibold">{/[.!?]$/.test(title) ? `${title} ` : `${title}: `}</strong> : null}
      {children}
    </div>
  );
}

/**
 * The form's own message (the browser's check or the server's refusal, with the refusal's title):
 * said here, so the answer shows no toast (docs/voice.md).
 */
export function FormError({ errors, answer }: { errors: FieldMessages; answer?: AnswerMessages | null }) {
  const message = errors.form?.[0];
  return <FormMessage title={formErrorTitle(answer, message)}>{message}</FormMessage>;
}
