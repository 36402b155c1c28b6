import { data, Link, redirect } from "react-router";
import { OfflineActivationForm } from "~/components/licenses/offline-activation-form";
import {
  ACTIVATION_REQUEST_FIELD,
  ACTIVATION_REQUEST_FILE_FIELD,
  ACTIVATION_REQUEST_MAX_SIZE,
  activationRequestText,
  OFFLINE_ACTIVATION_TEXTS,
} from "~/domain/activation-request";
import { readForm } from "~/http/read-form.server";
import { requireUser } from "~/http/session-guards.server";
import { activateOffline } from "~/server/license-api/offline-activation.server";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/licenses.offline-activation";

/** The request's text: the uploaded file's (when one was chosen), else the pasted text. */
async function requestText(form: FormData): Promise<string> {
  const file = form.get(ACTIVATION_REQUEST_FILE_FIELD);
  if (file instanceof File && file.size > 0) {
    // Past the limit the parser refuses by length without the file being decoded.
    if (file.size > ACTIVATION_REQUEST_MAX_SIZE) return "x".repeat(ACTIVATION_REQUEST_MAX_SIZE + 1);
    return activationRequestText(new Uint8Array(await file.arrayBuffer()));
  }
  const pasted = form.get(ACTIVATION_REQUEST_FIELD);
  return typeof pasted === "string" ? pasted : "";
}

export function loader({ request }: Route.LoaderArgs) {
  return requireUser(request).then(() => null);
}

/**
 * POST /licenses/offline-activation (decision 0071): a license card's activation request, uploaded or
 * pasted (multipart, with JavaScript or without). Activated: to the confirmation page with the
 * download. Refused: this page, with the status, the sentence and its code (in words for support, and
 * `data-code` for a program), and the form again; nothing was stored. Unsigned: a person reads it,
 * never the tool (decision 0075).
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const licenseId = String(form.get("licenseId") ?? "");
  const outcome = await activateOffline({ userId: user.id, licenseId, text: await requestText(form) });
  if (outcome.ok) return redirect(`/licenses/offline-activation/${outcome.activationId}`, 303);
  const { status, code, message } = outcome;
  return data({ code, message, licenseId }, { status });
}

export default function OfflineActivationPage({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-6 px-4 py-12 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">
        {actionData ? OFFLINE_ACTIVATION_TEXTS.refusedTitle : OFFLINE_ACTIVATION_TEXTS.title}
      </h1>
      {actionData ? (
        <>
          <div
            role="alert"
            data-testid="offline-activation-refused"
            data-code={actionData.code}
            className="rounded-md border border-destructive/50 bg-destructive/10 px-4 py-3 text-sm"
          >
            <p>{actionData.message}</p>
            <p className="mt-1 text-muted-foreground" data-testid="offline-activation-refused-code">
              {OFFLINE_ACTIVATION_TEXTS.refusalCode(actionData.code)}
            </p>
          </div>
          <div className="rounded-xl border bg-card p-5 text-sm">
            <OfflineActivationForm licenseId={actionData.licenseId} />
          </div>
        </>
      ) : (
        <p className="text-muted-foreground">{OFFLINE_ACTIVATION_TEXTS.fromCard}</p>
      )}
      <Link to="/licenses" className="text-primary underline underline-offset-4">
        {OFFLINE_ACTIVATION_TEXTS.back}
      </Link>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Activate a computer without a network"),
  { name: "description", content: "Activate the tool on a computer without a network with its activation request." },
];
