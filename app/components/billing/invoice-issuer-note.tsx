import { Link } from "react-router";
import { BILLING_DETAILS_TEXTS } from "~/domain/billing-details";
import { useRootData } from "../use-root-data";

/**
 * Who issues the invoices: Paddle, the merchant of record, with the details given in its
 * checkout; or, with the demo provider, the site, printing the billing details of the profile.
 */
export function InvoiceIssuerNote() {
  const paddle = useRootData()?.publicConfig.paymentProvider === "paddle";
  return (
    <p className="mt-4 text-sm text-muted-foreground" data-testid="invoice-issuer">
      {paddle ? (
        BILLING_DETAILS_TEXTS.paddleNote
      ) : (
        <>
          Invoices show the billing name, address and VAT or tax id of your{" "}
          <Link to="/profile#billing-details" className="text-primary underline underline-offset-4">
            profile
          </Link>{" "}
          (else your full name and company).
        </>
      )}
    </p>
  );
}
