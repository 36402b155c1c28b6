/**
 * The buyer's billing details (decision 0040): the name, postal address and VAT or tax id a business
 * needs on an invoice it files. Kept on the profile and given at the demo checkout; printed on the
 * demo provider's invoices. Paddle, the merchant of record, collects its own in its checkout.
 */

export const BILLING_DETAILS_LIMITS = { name: 200, address: 500, addressLines: 6, taxId: 32 } as const;

export const BILLING_DETAILS_TEXTS = {
  title: "Billing details",
  description: "Printed on your invoices: the name, address and VAT or tax id your business files them under.",
  saved: "Billing details saved",
  failed: "Could not save your billing details",
  nameTooLong: `Billing name is at most ${BILLING_DETAILS_LIMITS.name} characters.`,
  addressTooLong: `Billing address is at most ${BILLING_DETAILS_LIMITS.address} characters.`,
  addressTooManyLines: `Billing address is at most ${BILLING_DETAILS_LIMITS.addressLines} lines.`,
  taxIdInvalid: `VAT or tax id: up to ${BILLING_DETAILS_LIMITS.taxId} letters, digits, spaces, dots, hyphens and slashes.`,
  paddleNote:
    "Invoices are issued by Paddle, our merchant of record: Paddle's checkout asks for your business name, address and tax id, and its invoice shows them.",
} as const;

/** As kept on the profile: trimmed, and null when not given (billing-details-schema.ts reads a form into it). */
export interface BillingDetails {
  billing_name: string | null;
  billing_address: string | null;
  billing_tax_id: string | null;
}

export const NO_BILLING_DETAILS: BillingDetails = { billing_name: null, billing_address: null, billing_tax_id: null };

/** An address's non-blank lines, trimmed. */
export function addressLines(address: string | null | undefined): string[] {
  return (address ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * What an invoice prints under "Bill to": the billing name (else the person's name), the company,
 * the address's lines and the tax id; the e-mail last.
 */
export function invoiceBuyerLines(buyer: {
  name: string;
  company: string | null;
  email: string;
  details: BillingDetails;
}): { heading: string; lines: string[] } {
  const heading = buyer.details.billing_name || buyer.name || buyer.email;
  const company = buyer.company && buyer.company !== heading ? [buyer.company] : [];
  const taxId = buyer.details.billing_tax_id ? [`VAT / tax id: ${buyer.details.billing_tax_id}`] : [];
  const email = heading === buyer.email ? [] : [buyer.email];
  return { heading, lines: [...company, ...addressLines(buyer.details.billing_address), ...taxId, ...email] };
}
