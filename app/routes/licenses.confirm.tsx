import { pageTitle } from "~/lib/meta";
import { Link, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { LicensePageCard } from "~/components/licenses/license-page-card";
import { DESTRUCTIVE_OUTLINE } from "~/components/licenses/license-actions";
import { confirmationFor, isConfirmedIntent } from "~/domain/license-confirmation";
import { requireUser } from "~/http/session-guards.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { redirectWithToast } from "~/http/toast.server";
import { offerFor } from "~/server/licenses/leaving.server";
import { retentionOfferTexts } from "~/domain/retention-offer";
import { CancelReasonFields, RetentionOfferNote } from "~/components/licenses/cancel-renewal-fields";
import type { Route } from "./+types/licenses.confirm";

/**
 * The question a license card's dialog asks (cancel auto-renewal, start the paid plan now, cancel
 * the trial), as a page: without JavaScript the card's button is a link here, and this page's
 * form posts the action to /licenses, which answers with the licenses page and what was done.
 * Only the signed-in owner's license, and only while its state allows the action.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const intent = params.get("intent");
  const licenseId = params.get("license") ?? "";
  const back = (description: string) =>
    redirectWithToast("/licenses", { title: "Not available", description, variant: "destructive" });
  if (!isConfirmedIntent(intent)) throw redirect("/licenses");
  const license = (await listUserLicenses(user.id)).find((own) => own.id === licenseId);
  if (!license) throw await back("That license was not found among yours.");
  const now = new Date();
  const confirmation = confirmationFor(intent, license, now);
  if (!confirmation) throw await back("This license's state no longer allows that: see its card.");
  return {
    intent,
    confirmation,
    // Cancelling renewal asks why and makes the license's one offer (decision 0065).
    offer: intent === "cancel-renewal" ? offerFor(license, now) : null,
    license: { id: license.id, short_id: license.short_id, license_type: license.license_type },
  };
}

export default function ConfirmLicenseAction({ loaderData }: Route.ComponentProps) {
  const { intent, confirmation, license, offer } = loaderData;
  return (
    <LicensePageCard title={confirmation.title} license={license}>
      <p data-testid="confirmation-body">{confirmation.body}</p>
      <form method="post" action="/licenses" className="flex flex-wrap gap-3">
        <input type="hidden" name="licenseId" value={license.id} />
        <input type="hidden" name="native" value="1" />
        {intent === "cancel-renewal" ? (
          <div className="basis-full">
            <CancelReasonFields idPrefix="confirm" />
          </div>
        ) : null}
        {offer ? (
          <div className="basis-full">
            <RetentionOfferNote offer={offer} />
          </div>
        ) : null}
        {offer ? <input type="hidden" name="offer" value={offer.kind} /> : null}
        {offer ? (
          <Button type="submit" name="intent" value="take-offer">
            {retentionOfferTexts(offer).accept}
          </Button>
        ) : null}
        <Button
          type="submit"
          variant={confirmation.destructive ? "outline" : "default"}
          className={confirmation.destructive ? DESTRUCTIVE_OUTLINE : undefined}
          name="intent"
          value={intent}
        >
          {confirmation.confirm}
        </Button>
        <Button asChild variant="outline">
          <Link to={`/licenses#license-${license.id}`}>{confirmation.keep}</Link>
        </Button>
      </form>
    </LicensePageCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Confirm"),
  { name: "description", content: "Confirm a change to one of your licenses." },
  { name: "robots", content: "noindex" },
];
