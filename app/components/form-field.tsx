import type * as React from "react";
import { cn } from "~/lib/utils";
import { Input } from "./ui/input";
import { Label } from "./ui/label";

/** A labelled input with its error messages, wired for screen readers. */
export function FormField({
  id,
  label,
  errors,
  hint,
  className,
  ...inputProps
}: React.ComponentProps<typeof Input> & {
  id: string;
  label: React.ReactNode;
  errors?: string[] | null;
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
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="flex flex-col gap-1 text-sm text-[oklch(0.8_0.13_25)]">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

/** A form-level message (e.g. a server error) announced to screen readers. */
export function FormMessage({ children, tone = "error" }: { children?: React.ReactNode; tone?: "error" | "info" }) {
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
      {children}
    </div>
  );
}
