import { pageTitle } from "~/lib/meta";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { LicensePageCard } from "~/components/licenses/license-page-card";
import { PlanSwitchPreviewList } from "~/components/licenses/plan-switch-section";
import { licenseFacts } from "~/domain/license-status";
import { optionPriceText, planSwitchOptions, planSwitchRefusal } from "~/domain/plan-switch";
import { PLAN_SWITCH_TEXTS } from "~/domain/plan-switch-texts";
import { licenseTypeLabel } from "~/domain/plans";
import { requireUser } from "~/http/session-guards.server";
import { redirectWithToast } from "~/http/toast.server";
import { ActionError } from "~/server/action-error.server";
import { getOwnLicense } from "~/server/licenses/own-license.server";
import { licenseCharges } from "~/server/billing/license-charges.server";
import { previewPlanSwitch, type PlanSwitchQuote } from "~/server/licenses/plan-switch.server";
import type { Route } from "./+types/licenses.plan";

/**
 * "Change plan" as pages, for a card without JavaScript (decision 0061): the other plans as links,
 * the provider's preview of the one chosen, and a form that posts the switch to /licenses, which
 * answers with the licenses page and what was done. Only the signed-in owner's license, while it
 * may switch; a plan it cannot switch to is said on the page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const licenseId = params.get("license") ?? "";
  const back = (description: string) =>
    redirectWithToast("/licenses", { title: "Not available", description, variant: "destructive" });
  let license;
  try {
    license = await getOwnLicense(user.id, licenseId);
  } catch {
    throw await back("That license was not found among yours.");
  }
  const now = new Date();
  const refusal = planSwitchRefusal(licenseFacts(license), now);
  if (refusal) throw await back(refusal);
  const plan = params.get("plan");
  let quote: PlanSwitchQuote | null = null;
  let problem: string | null = null;
  if (plan !== null) {
    try {
      quote = await previewPlanSwitch({ userId: user.id, licenseId, plan });
    } catch (error) {
      if (!(error instanceof ActionError)) throw error;
      problem = error.message;
    }
  }
  const { id, short_id, license_type } = license;
  return {
    license: { id, short_id, license_type },
    // Its payments say the subscription's currency, which the plans are priced in (decision 0072).
    options: planSwitchOptions({ ...licenseFacts(license), charges: await licenseCharges(license.id) }, now),
    plan,
    quote,
    problem,
  };
}

export default function ChangePlanPage({ loaderData }: Route.ComponentProps) {
  const { license, options, plan, quote, problem } = loaderData;
  return (
    <LicensePageCard title={PLAN_SWITCH_TEXTS.title} license={license}>
      <p>{PLAN_SWITCH_TEXTS.choose}</p>
      <ul className="flex flex-col gap-2">
        {options.map((option) => (
          <li key={option.id}>
            <Button
              asChild
              variant={option.id === plan ? "default" : "outline"}
              className="h-auto w-full flex-wrap justify-between gap-x-2 py-2 whitespace-normal"
            >
              <Link to={`/licenses/plan?license=${license.id}&plan=${option.id}`}>
                <span>{PLAN_SWITCH_TEXTS.previewButton(option.name)}</span>
                <span>{optionPriceText(option)}</span>
              </Link>
            </Button>
          </li>
        ))}
      </ul>
      {problem ? (
        <p role="alert" className="text-destructive">
          {problem}
        </p>
      ) : null}
      {quote ? <PlanSwitchPreviewList preview={quote.preview} /> : null}
      <form method="post" action="/licenses" className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="change-plan" />
        <input type="hidden" name="licenseId" value={license.id} />
        <input type="hidden" name="plan" value={quote?.preview.to ?? ""} />
        <input type="hidden" name="stamp" value={quote?.stamp ?? ""} />
        <input type="hidden" name="native" value="1" />
        {quote ? <Button type="submit">{PLAN_SWITCH_TEXTS.confirm(licenseTypeLabel(quote.preview.to))}</Button> : null}
        <Button asChild variant="outline">
          <Link to={`/licenses#license-${license.id}`}>{PLAN_SWITCH_TEXTS.keep}</Link>
        </Button>
      </form>
    </LicensePageCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Change plan"),
  { name: "description", content: "Switch a license to another plan, with the charge shown before anything changes." },
  { name: "robots", content: "noindex" },
];
