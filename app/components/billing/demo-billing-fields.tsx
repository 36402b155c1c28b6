import { ChevronDown } from "~/components/lucide-icons";
import { BILLING_DETAILS_LIMITS, type BillingDetails } from "~/domain/billing-details";
import { CHEVRON_TURNS, Collapsible, CollapsibleContent, CollapsibleTrigger } from "../ui/collapsible";
import { Input } from "../ui/input";
import { Label } from "../ui/label";

/**
 * The demo checkout's billing details for the invoice (decision 0040): the profile's, ready to change;
 * saving the payment saves them to the profile. Paddle's own checkout asks for these itself.
 */
export function DemoBillingFields({ billing }: { billing: BillingDetails | null }) {
  const given = Boolean(billing?.billing_name || billing?.billing_address || billing?.billing_tax_id);
  return (
    <Collapsible open={given} className="rounded-md border px-3 py-2 text-sm" data-testid="demo-billing">
      <CollapsibleTrigger className="flex w-full items-center justify-between gap-2 py-1 font-medium">
        Billing details for the invoice (optional)
        <ChevronDown aria-hidden className={CHEVRON_TURNS} />
      </CollapsibleTrigger>
      <CollapsibleContent className="flex flex-col gap-3 pt-2 pb-1">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="checkout-billing-name">Billing name</Label>
          <Input
            id="checkout-billing-name"
            name="billing_name"
            autoComplete="organization"
            maxLength={BILLING_DETAILS_LIMITS.name}
            defaultValue={billing?.billing_name ?? ""}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="checkout-billing-address">Billing address</Label>
          <textarea
            id="checkout-billing-address"
            name="billing_address"
            rows={3}
            autoComplete="street-address"
            maxLength={BILLING_DETAILS_LIMITS.address}
            defaultValue={billing?.billing_address ?? ""}
            className="w-full min-w-0 rounded-md border border-input bg-background/60 px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 md:text-sm"
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="checkout-billing-tax-id">VAT or tax id</Label>
          <Input
            id="checkout-billing-tax-id"
            name="billing_tax_id"
            autoComplete="off"
            maxLength={BILLING_DETAILS_LIMITS.taxId}
            defaultValue={billing?.billing_tax_id ?? ""}
          />
        </div>
      </CollapsibleContent>
    </Collapsible>
  );
}
