import { Form } from "react-router";
import {
  ACTIVATION_REQUEST_FIELD,
  ACTIVATION_REQUEST_FILE_FIELD,
  OFFLINE_ACTIVATION_TEXTS,
} from "~/domain/activation-request";
import { Button } from "../ui/button";

/** Where the form posts (app/routes/licenses.offline-activation.tsx). */
export const OFFLINE_ACTIVATION_ACTION = "/licenses/offline-activation";

/**
 * "Activate a computer without a network" (decision 0071): the activation request the tool saved,
 * uploaded as a file or pasted, for one license. A plain multipart form: it works before scripts
 * load, and the answer is a page either way (the confirmation with the download, or why not).
 */
export function OfflineActivationForm({ licenseId }: { licenseId: string }) {
  const fileId = `offline-request-file-${licenseId}`;
  const pasteId = `offline-request-text-${licenseId}`;
  return (
    <Form
      method="post"
      action={OFFLINE_ACTIVATION_ACTION}
      encType="multipart/form-data"
      className="flex flex-col gap-3"
      data-testid="offline-activation-form"
    >
      <p className="text-muted-foreground">{OFFLINE_ACTIVATION_TEXTS.intro}</p>
      <input type="hidden" name="licenseId" value={licenseId} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fileId} className="font-medium">
          {OFFLINE_ACTIVATION_TEXTS.fileLabel}
        </label>
        <input
          id={fileId}
          name={ACTIVATION_REQUEST_FILE_FIELD}
          type="file"
          accept=".json,.txt,.req,application/json,text/plain"
          className="max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-card file:px-3 file:py-1.5 file:text-foreground"
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={pasteId} className="font-medium">
          {OFFLINE_ACTIVATION_TEXTS.pasteLabel}
        </label>
        <textarea
          id={pasteId}
          name={ACTIVATION_REQUEST_FIELD}
          rows={4}
          spellCheck={false}
          className="w-full rounded-md border border-input bg-background/60 px-3 py-2 font-mono text-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40"
        />
      </div>
      <Button type="submit" size="sm" className="self-start">
        {OFFLINE_ACTIVATION_TEXTS.submit}
      </Button>
    </Form>
  );
}

/** The form behind a native disclosure on a license card's machines section. */
export function OfflineActivation({ licenseId }: { licenseId: string }) {
  return (
    <details className="group rounded-md border border-border px-3 py-2" data-testid="offline-activation">
      <summary className="cursor-pointer font-medium">{OFFLINE_ACTIVATION_TEXTS.title}</summary>
      <div className="mt-2">
        <OfflineActivationForm licenseId={licenseId} />
      </div>
    </details>
  );
}
