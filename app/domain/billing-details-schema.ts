import { z } from "zod";
import { addressLines, BILLING_DETAILS_LIMITS, BILLING_DETAILS_TEXTS, type BillingDetails } from "./billing-details";
import { hasDisallowedCharacters, NOT_ALLOWED_CHARACTERS_MESSAGE } from "./text-input";

// The billing details form's rules (billing-details.ts has its limits and texts). A module of its own so
// that pages which only show billing details, such as /pricing's demo checkout, do not load zod.

const T = BILLING_DETAILS_TEXTS;

/** Trimmed; empty means none. */
const optional = (max: number, tooLong: string, multiline = false) =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? "").replace(/\r\n?/g, "\n").trim())
    .refine((value) => !hasDisallowedCharacters(value, { multiline }), NOT_ALLOWED_CHARACTERS_MESSAGE)
    .refine((value) => value.length <= max, tooLong);

export const billingDetailsSchema = z.object({
  billing_name: optional(BILLING_DETAILS_LIMITS.name, T.nameTooLong).transform((value) => value || null),
  billing_address: optional(BILLING_DETAILS_LIMITS.address, T.addressTooLong, true)
    .refine((value) => addressLines(value).length <= BILLING_DETAILS_LIMITS.addressLines, T.addressTooManyLines)
    .transform((value) => addressLines(value).join("\n") || null),
  billing_tax_id: optional(BILLING_DETAILS_LIMITS.taxId, T.taxIdInvalid)
    .refine((value) => value === "" || /^[A-Za-z0-9][A-Za-z0-9 ./-]*$/.test(value), T.taxIdInvalid)
    .transform((value) => value.replace(/\s+/g, " ").toUpperCase() || null),
}) satisfies z.ZodType<BillingDetails>;
