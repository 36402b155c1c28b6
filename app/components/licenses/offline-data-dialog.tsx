import { useState } from "react";
import { emptyOfflineValueWarning, offlineDataSchema } from "~/domain/offline-data";
import type { FieldErrors } from "~/domain/action-result";
import { parseValues } from "~/lib/form";
import { FormField, FormMessage } from "../form-field";
import { useAnswer } from "../use-answer";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import type { LicenseAction } from "./use-license-action";

const INTENT = "offline-data";

type OfflineValues = { windows_username: string; computer_name: string };

/** Step one: the two values, each with how to find it on Windows and what it may contain. */
function OfflineDataForm({
  licenseId,
  values,
  errors,
  onChange,
  onSubmit,
  onCancel,
}: {
  licenseId: string;
  values: OfflineValues;
  errors: FieldErrors;
  onChange: (values: OfflineValues) => void;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
}) {
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <FormMessage>{errors.form?.[0]}</FormMessage>
      <FormField
        id={`windows_username-${licenseId}`}
        name="windows_username"
        label="Windows username"
        placeholder={"DOMAIN\\dana"}
        autoComplete="off"
        maxLength={256}
        value={values.windows_username}
        onChange={(e) => onChange({ ...values, windows_username: e.target.value })}
        errors={errors.windows_username}
        hint={
          <>
            Run <code className="font-mono">whoami</code> or <code className="font-mono">echo %USERNAME%</code>. At most
            20 characters, none of {'\\ / [ ] : ; | = , + * ? < > "'} (one DOMAIN\ in front is fine).
          </>
        }
      />
      <FormField
        id={`computer_name-${licenseId}`}
        name="computer_name"
        label="Computer name"
        placeholder="DESKTOP-1A2B3C"
        autoComplete="off"
        maxLength={256}
        value={values.computer_name}
        onChange={(e) => onChange({ ...values, computer_name: e.target.value })}
        errors={errors.computer_name}
        hint={
          <>
            Run <code className="font-mono">hostname</code>. At most 15 letters, digits and hyphens.
          </>
        }
      />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">Continue</Button>
      </DialogFooter>
    </form>
  );
}

/** Step two: both values as they will be saved (normalised), with Back and Save. */
function OfflineDataConfirm({
  values,
  saving,
  disabled,
  onBack,
  onSave,
}: {
  values: OfflineValues;
  saving: boolean;
  disabled: boolean;
  onBack: () => void;
  onSave: () => void;
}) {
  const checked = parseValues(offlineDataSchema, values);
  const shown = checked.success ? checked.data : { windows_username: null, computer_name: null };
  const warning = checked.success ? emptyOfflineValueWarning(shown) : null;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border bg-background/40 p-4 text-sm">
        <dt className="text-muted-foreground">Windows username</dt>
        <dd className="[overflow-wrap:anywhere]" data-testid="confirm-windows-username">
          {shown.windows_username ?? "not set"}
        </dd>
        <dt className="text-muted-foreground">Computer name</dt>
        <dd className="[overflow-wrap:anywhere]" data-testid="confirm-computer-name">
          {shown.computer_name ?? "not set"}
        </dd>
      </dl>
      {warning ? (
        <p className="text-sm font-medium text-amber-700 dark:text-amber-400" data-testid="confirm-empty-warning">
          {warning}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={saving} onClick={onBack}>
          Back
        </Button>
        <Button type="button" disabled={disabled} onClick={onSave}>
          {saving ? <Spinner /> : null} Save offline data
        </Button>
      </DialogFooter>
    </div>
  );
}

/**
 * Setting a license's offline data, in two steps: the values (checked as the server checks them),
 * then a confirmation that shows both values, because they can be set only once.
 */
export function OfflineDataDialog({ licenseId, action }: { licenseId: string; action: LicenseAction }) {
  const { fetcher, busy, disabled } = action;
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<"edit" | "confirm">("edit");
  const [values, setValues] = useState<OfflineValues>({ windows_username: "", computer_name: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const saving = busy && action.pendingIntent === INTENT;

  useAnswer(fetcher.data, fetcher.state === "idle", (answer) => {
    if (!open) return;
    if (answer.toast?.variant === "success") return close();
    // Refused by the server: back to the values, with its messages.
    setErrors(answer.fieldErrors ?? {});
    setStep("edit");
  });

  function close() {
    setOpen(false);
    setStep("edit");
    setErrors({});
  }

  const review = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseValues(offlineDataSchema, values);
    if (!parsed.success) return setErrors(parsed.fieldErrors);
    setErrors({});
    setStep("confirm");
  };

  const save = () => fetcher.submit({ intent: INTENT, licenseId, ...values }, { method: "post", action: "/licenses" });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" className="self-start" disabled={disabled}>
          Set offline data
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{step === "edit" ? "Offline data" : "Save this offline data?"}</DialogTitle>
          <DialogDescription>
            {step === "edit"
              ? "Tie this license to a Windows username, a computer name, or both, so the tool can check it without a connection. The values can be set only once: after saving, they cannot be changed."
              : "These values can be set only once and cannot be changed later. The license gets a new key made for them."}
          </DialogDescription>
        </DialogHeader>
        {step === "edit" ? (
          <OfflineDataForm
            licenseId={licenseId}
            values={values}
            errors={errors}
            onChange={setValues}
            onSubmit={review}
            onCancel={close}
          />
        ) : (
          <OfflineDataConfirm
            values={values}
            saving={saving}
            disabled={disabled}
            onBack={() => setStep("edit")}
            onSave={save}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
