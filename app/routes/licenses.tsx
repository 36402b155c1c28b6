import { pageTitle } from "~/lib/meta";
import type { ActionResult, FieldErrors } from "~/domain/action-result";
import { failure } from "~/http/action-reply.server";
import { ChevronDown, Plus } from "~/components/lucide-icons";
import { Link } from "react-router";
import { LicenseList } from "~/components/licenses/license-list";
import { ClaimSeatCards } from "~/components/team/claim-seat-card";
import { Button } from "~/components/ui/button";
import { CHEVRON_TURNS, Collapsible, CollapsibleContent, CollapsibleTrigger } from "~/components/ui/collapsible";
import { data } from "react-router";
import { nextCardChange } from "~/domain/license-card";
import { LICENSE_ERRORS, LICENSE_TOASTS } from "~/domain/license-texts";
import { parseForm } from "~/lib/form";
import { requireUser } from "~/http/session-guards.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { offlineDataSchema, setOfflineData } from "~/server/licenses/offline-data.server";
import { ActionError } from "~/server/action-error.server";
import { reenableRenewal } from "~/server/licenses/renewal.server";
import { cancelRenewalWithAnswer, LEAVING_TEXTS, offerFor, takeRetentionOffer } from "~/server/licenses/leaving.server";
import { offerTakenToast } from "~/domain/retention-offer";
import { requestRefund } from "~/server/licenses/request-refund.server";
import { cancelTrial, startPaidPlan } from "~/server/licenses/trial.server";
import { confirmPlanSwitch, previewPlanSwitch } from "~/server/licenses/plan-switch.server";
import { PLAN_SWITCH_TEXTS, planSwitchDoneToast } from "~/domain/plan-switch-texts";
import { TRIAL_TEXTS } from "~/domain/trial-conversion";
import { TRIAL_DAYS } from "~/domain/plans";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import { redirectWithToast } from "~/http/toast.server";
import { NoScriptNotice } from "~/components/no-script-notice";
import { claimableTeams } from "~/server/teams/team-accept.server";
import type { Route } from "./+types/licenses";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const now = new Date();
  // A team's seat is marked "provided by <team>" and offers no billing actions (decision 0047), read with
  // the licenses; so is how many members a refund of the owner's team subscription would leave without a seat.
  const [licenses, claimable] = await Promise.all([
    listUserLicenses(user.id, { teams: true }),
    // Teams offering seats to the user's confirmed domain (docs/product.md); migration 0027 announces a claim
    // turned on, off or renamed to the users at its domain.
    claimableTeams(user),
  ]);
  // The same session may get this page again from memory until a card would change by the clock
  // (and at most a minute); any change of a license or of the session forgets it first.
  context.reuseAnswerUntil?.(nextCardChange(licenses, now) ?? new Date(now.getTime() + 60_000));
  // Each card's cancel step makes the vendor's offer once per license, where one makes sense (decision 0065).
  const cards = licenses.map((license) => ({ ...license, retention_offer: offerFor(license, now) }));
  return { licenses: cards, claimable, now: now.toISOString() };
}

/**
 * A card's answer: data for the card's fetcher; for a plain form post (no JavaScript: `native`),
 * a success goes back to the licenses page at that card with what was done, printed there.
 */
const replyTo = (form: FormData, licenseId: string) => (status: number, result: ActionResult) =>
  form.get("native") && result.toast
    ? redirectWithToast(`/licenses#license-${licenseId}`, result.toast)
    : data(result, { status });
const fail = (status: number, description: string, fieldErrors?: FieldErrors) =>
  failure(status, { description, fieldErrors, formError: false });

/**
 * The license cards' actions, by intent. Each checks, on the server, that the license is the
 * signed-in user's (404 otherwise) and that its state allows the action (409 otherwise).
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const licenseId = String(form.get("licenseId") ?? "");
  const intent = form.get("intent");
  const reply = replyTo(form, licenseId);
  const fallback: Record<string, string> = {
    "offline-data": LICENSE_ERRORS.update,
    "cancel-renewal": LICENSE_ERRORS.cancel,
    "reenable-renewal": LICENSE_ERRORS.reenable,
    "take-offer": LEAVING_TEXTS.offerFailed,
    "request-refund": LICENSE_ERRORS.refund,
    "start-paid-plan": TRIAL_TEXTS.startFailed,
    "cancel-trial": TRIAL_TEXTS.cancelFailed,
    "preview-plan": PLAN_SWITCH_TEXTS.previewFailed,
    "change-plan": PLAN_SWITCH_TEXTS.changeFailed,
  };
  try {
    switch (intent) {
      case "offline-data": {
        const parsed = parseForm(offlineDataSchema, form);
        if (!parsed.success)
          return fail(400, parsed.fieldErrors.form?.[0] ?? LICENSE_ERRORS.update, parsed.fieldErrors);
        const { keyRegenerated } = await setOfflineData({ user, licenseId, ...parsed.data });
        return reply(200, { toast: { ...LICENSE_TOASTS.updated(keyRegenerated), variant: "success" } });
      }
      // Cancelling says why (both optional) and declines the offer made, if any (decision 0065).
      case "cancel-renewal": {
        const answer = { reason: form.get("reason"), note: form.get("note") };
        await cancelRenewalWithAnswer({ userId: user.id, licenseId, ...answer });
        return reply(200, { toast: { ...LICENSE_TOASTS.cancelled, variant: "success" } });
      }
      case "take-offer": {
        const answer = { reason: form.get("reason"), note: form.get("note"), offer: form.get("offer") };
        const offer = await takeRetentionOffer({ userId: user.id, licenseId, ...answer });
        return reply(200, { toast: { ...offerTakenToast(offer), variant: "success" } });
      }
      case "reenable-renewal":
        await reenableRenewal({ userId: user.id, licenseId });
        return reply(200, { toast: { ...LICENSE_TOASTS.reenabled, variant: "success" } });
      case "request-refund": {
        const { totals } = await requestRefund({ user, licenseId });
        return reply(200, { toast: { ...LICENSE_TOASTS.refundRequested(totals), variant: "success" } });
      }
      case "start-paid-plan": {
        const { amountCents, currency, renewsOn } = await startPaidPlan({ userId: user.id, licenseId });
        return reply(200, { toast: { ...TRIAL_TEXTS.started(amountCents, currency, renewsOn), variant: "success" } });
      }
      case "cancel-trial": {
        const { endsOn } = await cancelTrial({ userId: user.id, licenseId });
        return reply(200, { toast: { ...TRIAL_TEXTS.cancelled(endsOn), variant: "success" } });
      }
      // "Change plan" (decision 0061): the preview for the card's dialog, then the confirmed switch.
      case "preview-plan": {
        const quote = await previewPlanSwitch({ userId: user.id, licenseId, plan: form.get("plan") });
        return data({ toast: null, planSwitch: quote }, { status: 200 });
      }
      case "change-plan": {
        const asked = { userId: user.id, licenseId, plan: form.get("plan"), stamp: form.get("stamp") };
        const preview = await confirmPlanSwitch(asked);
        return reply(200, { toast: { ...planSwitchDoneToast(preview), variant: "success" } });
      }
      default:
        return fail(400, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error, intent }, "license action failed");
    return fail(500, fallback[String(intent)] ?? LICENSE_ERRORS.update);
  }
}

export default function Licenses({ loaderData, actionData }: Route.ComponentProps) {
  const { licenses } = loaderData;
  // The server's clock decides what is expired, so server and browser render the same.
  const now = new Date(loaderData.now);
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-12 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight">Your licenses</h1>
          <p className="mt-1 text-muted-foreground">
            Keys, dates and renewal of every license you bought.{" "}
            <Link to="/billing" className="text-primary underline underline-offset-4">
              Billing history and invoices
            </Link>
          </p>
        </div>
        <Button asChild>
          <Link to="/pricing">
            <Plus aria-hidden /> Buy More Licenses
          </Link>
        </Button>
      </div>

      {/* A plain form post that failed (no JavaScript): why, on the page it came back to. */}
      <NoScriptNotice toast={actionData?.toast} className="mt-6" />
      <ClaimSeatCards teams={loaderData.claimable} className="mt-8" />

      {licenses.length === 0 ? (
        <div className="mt-10 flex flex-col items-center gap-4 rounded-xl border border-dashed p-10 text-center">
          <h2 className="text-xl font-semibold">No licenses yet</h2>
          <p className="text-muted-foreground">
            Choose a plan to get your first license; new customers start with a {TRIAL_DAYS}-day free trial.
          </p>
          <Button asChild>
            <Link to="/pricing">Get Your First License</Link>
          </Button>
        </div>
      ) : (
        <LicenseList licenses={licenses} now={now} />
      )}

      <Collapsible className="mt-8 rounded-xl border bg-card px-5 py-3">
        <CollapsibleTrigger className="flex w-full items-center justify-between gap-2 py-1 text-left font-medium">
          About offline licenses
          <ChevronDown aria-hidden className={CHEVRON_TURNS} />
        </CollapsibleTrigger>
        <CollapsibleContent>
          <ul className="mt-2 flex list-disc flex-col gap-1.5 pb-2 pl-5 text-sm text-muted-foreground">
            <li data-testid="offline-paid-plan">
              Offline data comes with a paid plan; a trial license has none (it is set on the card once the plan
              starts).
            </li>
            <li>An offline license needs a Windows username or a computer name.</li>
            <li>
              Find them on the computer: <code className="font-mono">whoami</code> or{" "}
              <code className="font-mono">echo %USERNAME%</code> for the username,{" "}
              <code className="font-mono">hostname</code> for the computer name.
            </li>
            <li>They can be changed only once.</li>
          </ul>
        </CollapsibleContent>
      </Collapsible>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Licenses"),
  { name: "description", content: "Your licenses: keys, dates, offline data and renewal." },
];

/** The licenses could not be read: the page's text, and a way to try again. */
export function ErrorBoundary() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">{LICENSE_ERRORS.load}</h1>
      <p className="text-muted-foreground">Something went wrong on our side. Please try again in a moment.</p>
      <a href="/licenses" className="text-primary underline underline-offset-4">
        Try again
      </a>
    </div>
  );
}
