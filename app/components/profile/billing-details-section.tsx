import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { BILLING_DETAILS_LIMITS, BILLING_DETAILS_TEXTS as T, type BillingDetails } from "~/domain/billing-details";
import { FieldErrors, FormError, FormField } from "../form-field";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Label } from "../ui/label";
import { Spinner } from "../ui/spinner";
import { useActionToast } from "../use-action-toast";
import { useRootData } from "../use-root-data";

const optional = <span className="font-normal text-muted-foreground">(optional)</span>;

/** The billing name, address and tax id printed on invoices (decision 0040); a plain post without scripts. */
export function BillingDetailsSection({ details }: { details: BillingDetails }) {
  const paddle = useRootData()?.publicConfig.paymentProvider === "paddle";
  const fetcher = useFetcher<ActionResult>();
  const saving = fetcher.state !== "idle";
  const errors = fetcher.data?.fieldErrors ?? {};
  useActionToast(fetcher.data);
  return (
    <Card className="mt-6" id="billing-details">
      <CardHeader>
        <CardTitle>
          <h2>{T.title}</h2>
        </CardTitle>
        <CardDescription>{paddle ? T.paddleNote : T.description}</CardDescription>
      </CardHeader>
      {paddle ? null : (
        <CardContent>
          <fetcher.Form
            method="post"
            action="/profile/billing-details"
            preventScrollReset
            noValidate
            className="flex flex-col gap-4"
            data-testid="billing-details-form"
          >
            <FormError errors={errors} answer={fetcher.data} />
            <FormField
              id="billing_name"
              name="billing_name"
              label={<>Billing name {optional}</>}
              hint="The name the invoice is made out to, e.g. your company's legal name."
              defaultValue={details.billing_name ?? ""}
              autoComplete="organization"
              maxLength={BILLING_DETAILS_LIMITS.name}
              errors={errors.billing_name}
            />
            <div className="flex flex-col gap-2">
              <Label htmlFor="billing_address">Billing address {optional}</Label>
              <textarea
                id="billing_address"
                name="billing_address"
                rows={3}
                defaultValue={details.billing_address ?? ""}
                autoComplete="street-address"
                maxLength={BILLING_DETAILS_LIMITS.address}
                aria-invalid={errors.billing_address ? true : undefined}
                aria-describedby={errors.billing_address ? "billing_address-error" : undefined}
                className="w-full min-w-0 rounded-md border border-input bg-background/60 px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 aria-invalid:border-destructive md:text-sm"
              />
              <FieldErrors id="billing_address-error" errors={errors.billing_address} />
            </div>
            <FormField
              id="billing_tax_id"
              name="billing_tax_id"
              label={<>VAT or tax id {optional}</>}
              defaultValue={details.billing_tax_id ?? ""}
              autoComplete="off"
              maxLength={BILLING_DETAILS_LIMITS.taxId}
              errors={errors.billing_tax_id}
            />
            <div>
              <Button type="submit" variant="secondary" disabled={saving}>
                {saving ? <Spinner aria-label="Saving" /> : null}
                Save billing details
              </Button>
            </div>
          </fetcher.Form>
        </CardContent>
      )}
    </Card>
  );
}
