import { DISCOUNT_CODE_MAX } from "~/domain/discount-codes";
import { Input } from "../ui/input";
import { Label } from "../ui/label";

/**
 * The pricing page's discount code (decision 0073): sent with the plan chosen next; the server checks
 * it with the payment provider and the checkout shows the discounted first charge, or says why not.
 */
export function DiscountCodeField({
  value,
  onChange,
  showTrial,
}: {
  value: string;
  onChange: (value: string) => void;
  showTrial: boolean;
}) {
  return (
    <div className="mx-auto mt-8 flex max-w-sm flex-col gap-2">
      <Label htmlFor="discount-code">Discount code (optional)</Label>
      <Input
        id="discount-code"
        name="discountCode"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={DISCOUNT_CODE_MAX}
        autoComplete="off"
        spellCheck={false}
        aria-describedby="discount-code-help"
      />
      <p id="discount-code-help" className="text-xs text-muted-foreground">
        Letters and numbers; applied to the plan you choose next.
        {showTrial
          ? " With a code, the first charge is today's, at the discounted price, instead of the free trial."
          : ""}
      </p>
    </div>
  );
}
