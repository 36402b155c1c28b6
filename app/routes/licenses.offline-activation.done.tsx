import { CheckCircle2, Download } from "~/components/lucide-icons";
import { data, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { OFFLINE_ACTIVATION_TEXTS } from "~/domain/activation-request";
import { formatDateTime } from "~/domain/format-date";
import { requireUser } from "~/http/session-guards.server";
import { offlineActivation } from "~/server/license-api/offline-activation.server";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/licenses.offline-activation.done";

/**
 * The confirmation of an offline activation (decision 0071), where the activation form's post lands:
 * which computer is activated on which license, and the activation file's download (while the
 * machine is active and the license valid). Its uploader's own license only (404 otherwise).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const found = await offlineActivation(user.id, params.activationId);
  if (!found) throw data("License not found", { status: 404 });
  return { activation: found.view };
}

export default function OfflineActivationDone({ loaderData }: Route.ComponentProps) {
  const { activation } = loaderData;
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-6 px-4 py-12 sm:px-6">
      <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
        <CheckCircle2 aria-hidden className="size-6 text-primary" />
        {OFFLINE_ACTIVATION_TEXTS.doneTitle}
      </h1>
      <div role="status" data-testid="offline-activation-done" className="flex flex-col gap-2">
        <p className="font-medium">{OFFLINE_ACTIVATION_TEXTS.done(activation.machineName, activation.shortId)}</p>
        <p className="text-sm text-muted-foreground">{formatDateTime(activation.activatedAt)}</p>
        <p className="text-muted-foreground">{activation.unavailable ?? OFFLINE_ACTIVATION_TEXTS.doneNext}</p>
      </div>
      {activation.fileAvailable ? (
        <Button asChild className="self-start">
          {/* A real link to a file: it downloads before scripts load, and again whenever it is lost. */}
          <a href={`/licenses/offline-activation/${activation.id}/file`} download data-testid="activation-file-link">
            <Download aria-hidden /> {OFFLINE_ACTIVATION_TEXTS.download}
          </a>
        </Button>
      ) : null}
      <Link to="/licenses" className="text-primary underline underline-offset-4">
        {OFFLINE_ACTIVATION_TEXTS.back}
      </Link>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, OFFLINE_ACTIVATION_TEXTS.doneTitle),
  { name: "description", content: "The activation file of a computer activated without a network." },
];
