import { pageTitle } from "~/lib/meta";
import { useState } from "react";
import { data, Form, Link, redirect, useNavigate, useNavigation } from "react-router";
import { ExtensionPriceComparison } from "~/components/licenses/extension-price-comparison";
import { ExtensionStepper } from "~/components/licenses/extension-stepper";
import { NeedsScript } from "~/components/needs-script";
import { NoScriptNotice } from "~/components/no-script-notice";
import { useHydrated } from "~/components/use-hydrated";
import { useAnswer } from "~/components/use-answer";
import { useCheckout } from "~/components/billing/use-checkout";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import {
  EXTENSION_MONTH_CENTS,
  EXTENSION_YEAR_CENTS,
  MAX_EXTRA_MONTHS,
  MAX_EXTRA_YEARS,
  extendedEndDate,
  extensionCountsFromQuery,
  extensionMonths,
  extensionPriceCents,
  extensionWords,
  isValidExtension,
  quoteMatches,
} from "~/domain/extension";
import { formatDate } from "~/domain/format-date";
import { canExtendLicense } from "~/domain/license-card";
import { formatUsd, licenseTypeLabel } from "~/domain/plans";
import { openTransactionCheckout, type CheckoutEvent } from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import { useRootData } from "~/components/use-root-data";
import { requireUser } from "~/http/session-guards.server";
import { EXTENSION_FAILED, EXTENSION_REFUSED, extendLicense } from "~/server/licenses/extend-license.server";
import { getOwnLicense } from "~/server/licenses/own-license.server";
import { ActionError } from "~/server/action-error.server";
import { getLogger } from "~/server/logger.server";
import { redirectWithToast } from "~/http/toast.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/extend-license";

/**
 * The license to extend is named in the address (`?license=<id>`) and read on the server, so a
 * reload renders the same page on the server and in the browser (it used to come from the
 * history state, which the server never sees: React #418 on reload). The server's clock is sent
 * along for the same reason.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  // "licenseId" when the form itself asked for the page again (Update the total, without JavaScript).
  const licenseId = params.get("license") ?? params.get("licenseId") ?? "";
  const back = (description: string) =>
    redirectWithToast("/licenses", { title: "Extension not available", description, variant: "destructive" });
  if (!licenseId) throw redirect("/licenses");
  let license;
  try {
    license = await getOwnLicense(user.id, licenseId);
  } catch (error) {
    if (error instanceof ActionError) throw await back("That license was not found among yours.");
    throw error;
  }
  if (!canExtendLicense(license)) throw await back(EXTENSION_REFUSED);
  return {
    license: {
      id: license.id,
      short_id: license.short_id,
      license_type: license.license_type,
      end_date: license.end_date.toISOString(),
    },
    // Without JavaScript the steppers are links carrying the numbers (app/domain/extension.ts).
    ...extensionCountsFromQuery(params),
    now: new Date().toISOString(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const input = {
    userId: user.id,
    email: user.email,
    licenseId: String(form.get("licenseId") ?? ""),
    months: Number(form.get("months")),
    years: Number(form.get("years")),
  };
  // Without JavaScript the total on the button was printed before new numbers were typed: a
  // different total is shown again (the page with those numbers) instead of being charged.
  if (
    isValidExtension(input.months, input.years) &&
    !quoteMatches(form.get("quotedCents") as string | null, input.months, input.years)
  ) {
    const page = `/extend-license?${new URLSearchParams({ license: input.licenseId, months: String(input.months), years: String(input.years) })}`;
    return redirectWithToast(page, {
      title: "Check the new total",
      description: `The total for ${extensionWords(input.months, input.years)} is ${formatUsd(extensionPriceCents(input.months, input.years))}. Press Pay to extend.`,
    });
  }
  const failed = (status: number, description: string) =>
    data(
      {
        toast: { title: "Extension Failed", description, variant: "destructive" as const },
        checkoutTransactionId: null,
      },
      { status },
    );
  try {
    const outcome = await extendLicense(input);
    if (outcome.kind === "checkout") return data({ toast: null, checkoutTransactionId: outcome.transactionId });
    return redirectWithToast("/licenses", {
      title: "License Extended",
      description: `Your license now runs until ${formatDate(outcome.end_date)}, with a new key.`,
      variant: "success",
    });
  } catch (error) {
    if (error instanceof ActionError) return failed(error.status, error.message);
    getLogger().error({ err: error }, "license extension failed");
    return failed(500, EXTENSION_FAILED);
  }
}

export default function ExtendLicense({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { license } = loaderData;
  const now = new Date(loaderData.now);
  const [months, setMonths] = useState(loaderData.months);
  const [years, setYears] = useState(loaderData.years);
  const hydrated = useHydrated();
  const stepHref = (next: { months: number; years: number }) =>
    `/extend-license?${new URLSearchParams({ license: license.id, months: String(next.months), years: String(next.years) })}`;
  useActionToast(actionData);
  const config = useRootData()!.publicConfig;
  const onCheckoutEvent = (event: CheckoutEvent) => {
    if (event.name !== "checkout.completed") return;
    showToast({
      title: "License Extended",
      description: "Your new expiry date appears as soon as the payment is confirmed.",
      variant: "success",
    });
    navigate("/licenses");
  };
  const checkout = useCheckout(config, onCheckoutEvent);
  // Open the overlay once per prepared transaction.
  useAnswer(actionData?.checkoutTransactionId, navigation.state === "idle", (transactionId) => {
    const problem = openTransactionCheckout(checkout.system, transactionId, null);
    if (problem) showToast({ title: "Extension Failed", description: problem, variant: "destructive" });
  });
  const total = extensionPriceCents(months, years);
  const processing = navigation.state !== "idle";
  // As the webhook computes it: from the later of the end date and now (an expired license restarts today).
  const newEnd = extendedEndDate(new Date(license.end_date), now, extensionMonths(months, years));
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Extend license</h1>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle className="flex flex-wrap items-baseline gap-x-3">
            {licenseTypeLabel(license.license_type)} license
            <span className="font-mono text-sm font-normal text-muted-foreground">{license.short_id}</span>
          </CardTitle>
          <CardDescription>Current expiry: {formatDate(license.end_date)}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" className="flex flex-col gap-5">
            <input type="hidden" name="licenseId" value={license.id} />
            <input type="hidden" name="quotedCents" value={total} />
            <NoScriptNotice toast={actionData?.toast} />
            <ExtensionStepper
              id="months"
              label="Additional months"
              value={months}
              max={MAX_EXTRA_MONTHS}
              onChange={setMonths}
              stepHref={(next) => stepHref({ months: next, years })}
            />
            <ExtensionStepper
              id="years"
              label="Additional years"
              value={years}
              max={MAX_EXTRA_YEARS}
              onChange={setYears}
              stepHref={(next) => stepHref({ months, years: next })}
            />
            <ExtensionTotals months={months} years={years} newEnd={newEnd} />
            <ExtensionPriceComparison />
            {config.paymentProvider === "demo" ? (
              <p className="text-xs text-muted-foreground">
                Demo payment: nothing is charged; it takes about 2 seconds.
              </p>
            ) : null}
            <ExtensionButtons
              total={total}
              processing={processing}
              hydrated={hydrated}
              demo={config.paymentProvider === "demo"}
            />
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

/** Pay (the total the page shows), Update the total without JavaScript, and Cancel. */
function ExtensionButtons({
  total,
  processing,
  hydrated,
  demo,
}: {
  total: number;
  processing: boolean;
  hydrated: boolean;
  demo: boolean;
}) {
  return (
    <div className="flex flex-wrap gap-3">
      <Button type="submit" disabled={total === 0 || processing}>
        {processing ? "Processing payment…" : `Pay ${formatUsd(total)} and extend`}
      </Button>
      {hydrated ? null : (
        // Without JavaScript the server prices typed numbers: this reloads the page with them.
        <Button type="submit" variant="outline" formMethod="get">
          Update the total
        </Button>
      )}
      {demo ? null : <NeedsScript className="self-center" />}
      <Button asChild variant="outline">
        <Link to="/licenses">Cancel</Link>
      </Button>
    </div>
  );
}

/** The price summary: each part, the total and the new expiry. */
function ExtensionTotals({ months, years, newEnd }: { months: number; years: number; newEnd: Date }) {
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-y-1 rounded-md border bg-background/40 p-4 text-sm">
      <dt className="text-muted-foreground">
        {months} × {formatUsd(EXTENSION_MONTH_CENTS)} per month
      </dt>
      <dd>{formatUsd(months * EXTENSION_MONTH_CENTS)}</dd>
      <dt className="text-muted-foreground">
        {years} × {formatUsd(EXTENSION_YEAR_CENTS)} per year
      </dt>
      <dd>{formatUsd(years * EXTENSION_YEAR_CENTS)}</dd>
      <dt className="mt-2 border-t pt-2 font-medium">Total</dt>
      <dd className="mt-2 border-t pt-2 font-semibold" data-testid="extension-total">
        {formatUsd(extensionPriceCents(months, years))}
      </dd>
      <dt className="text-muted-foreground">New expiry</dt>
      <dd data-testid="extension-new-end">{formatDate(newEnd)}</dd>
    </dl>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Extend license"),
  { name: "description", content: "Add months or years to a license." },
  { name: "robots", content: "noindex" },
];
