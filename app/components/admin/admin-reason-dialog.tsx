import { useState } from "react";
import { useFetcher } from "react-router";
import { SUPPORT_REASON_MAX } from "~/domain/admin-support";
import type { ActionResult } from "~/domain/action-result";
import { FieldErrors } from "../form-field";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/alert-dialog";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { useActionToast } from "../use-action-toast";

/**
 * Shows the success toast of the dialog `id`'s answer, from a component that stays when the dialog
 * goes; a refusal is said in the dialog, which stays open with it.
 */
export function useDialogToast(id: string): void {
  const fetcher = useFetcher<ActionResult>({ key: id });
  useActionToast(fetcher.state === "idle" ? fetcher.data : undefined, { failuresShownHere: true });
}

/** The dialog's fields: the new address (if asked), the reason (if required), the server's message. */
function DialogFields({
  id,
  reason,
  emailField,
  result,
}: {
  id: string;
  reason: boolean;
  emailField: { label: string; defaultValue: string } | null;
  result: ActionResult | undefined;
}) {
  const reasonErrors = result?.fieldErrors?.reason;
  const emailErrors = result?.fieldErrors?.email;
  const formError = result && !result.ok && !reasonErrors && !emailErrors ? result.toast?.description : null;
  return (
    <>
      {emailField ? (
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-email`}>{emailField.label}</Label>
          <Input
            id={`${id}-email`}
            name="email"
            type="email"
            defaultValue={emailField.defaultValue}
            aria-invalid={emailErrors ? true : undefined}
            aria-describedby={emailErrors ? `${id}-email-error` : undefined}
          />
          <FieldErrors id={`${id}-email-error`} errors={emailErrors} />
        </div>
      ) : null}
      {reason ? (
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-reason`}>
            Reason (kept in the audit log) <span className="text-xs font-normal text-muted-foreground">required</span>
          </Label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            aria-required="true"
            maxLength={SUPPORT_REASON_MAX}
            rows={3}
            aria-invalid={reasonErrors ? true : undefined}
            aria-describedby={reasonErrors ? `${id}-reason-error` : undefined}
            className="rounded-md border border-input bg-transparent px-3 py-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          />
          <FieldErrors id={`${id}-reason-error`} errors={reasonErrors} />
        </div>
      ) : null}
      {formError ? (
        <p role="alert" className="text-sm text-destructive">
          {formError}
        </p>
      ) : null}
    </>
  );
}

/**
 * A support action's confirmation (decision 0038): what will happen, the reason (kept in the audit
 * log; required unless `reason` is false), an optional e-mail field, and the server's answer —
 * the dialog closes on success and stays open with the field's message otherwise.
 */
export function AdminReasonDialog({
  id,
  trigger,
  title,
  description,
  intent,
  submit,
  hidden = {},
  destructive = false,
  reason = true,
  emailField = null,
  toast = true,
  cancel = "Cancel",
}: {
  id: string;
  trigger: string;
  title: string;
  description: React.ReactNode;
  intent: string;
  submit: string;
  hidden?: Record<string, string>;
  destructive?: boolean;
  reason?: boolean;
  emailField?: { label: string; defaultValue: string } | null;
  /** false: the answer's toast is shown by a parent that outlives the dialog (useDialogToast). */
  toast?: boolean;
  /** The label of the button that closes the dialog without acting. */
  cancel?: string;
}) {
  // Keyed by the dialog: a parent that stays when the dialog goes (its action removed the button) reads the answer.
  const fetcher = useFetcher<ActionResult>({ key: id });
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  // A refusal is said in the dialog (beside the field, or below them): never a toast too.
  useActionToast(toast ? result : undefined, { failuresShownHere: true });
  const [open, setOpen] = useState(false);
  const [closedFor, setClosedFor] = useState<unknown>(null);
  const shown = open && !(result?.ok && closedFor !== result);
  return (
    <AlertDialog
      open={shown}
      onOpenChange={(next) => {
        setOpen(next);
        setClosedFor(result ?? null);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button type="button" variant={destructive ? "destructive" : "outline"} size="sm">
          {trigger}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <fetcher.Form method="post" noValidate className="flex flex-col gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>{title}</AlertDialogTitle>
            <AlertDialogDescription>{description}</AlertDialogDescription>
          </AlertDialogHeader>
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <DialogFields id={id} reason={reason} emailField={emailField} result={result} />
          <AlertDialogFooter>
            <AlertDialogCancel type="button">{cancel}</AlertDialogCancel>
            <Button type="submit" variant={destructive ? "destructive" : "default"} disabled={fetcher.state !== "idle"}>
              {submit}
            </Button>
          </AlertDialogFooter>
        </fetcher.Form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
