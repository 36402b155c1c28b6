import { describe, expect, it } from "vitest";
import {
  addressLines,
  BILLING_DETAILS_TEXTS as T,
  invoiceBuyerLines,
  NO_BILLING_DETAILS,
} from "~/domain/billing-details";
import { billingDetailsSchema } from "~/domain/billing-details-schema";
import { NOT_ALLOWED_CHARACTERS_MESSAGE } from "~/domain/text-input";

const parse = (input: Record<string, string | undefined>) => billingDetailsSchema.safeParse(input);
const errorOf = (input: Record<string, string | undefined>) =>
  parse(input).error?.issues.map((issue) => issue.message)[0];

describe("billing details", () => {
  it("trims, drops blank lines, upper-cases the tax id and keeps empty fields as none", () => {
    expect(
      parse({
        billing_name: "  Acme GmbH ",
        billing_address: " Hauptstr. 1\r\n\r\n 10115 Berlin \n Germany ",
        billing_tax_id: " de 123456789 ",
      }).data,
    ).toEqual({
      billing_name: "Acme GmbH",
      billing_address: "Hauptstr. 1\n10115 Berlin\nGermany",
      billing_tax_id: "DE 123456789",
    });
    expect(parse({}).data).toEqual(NO_BILLING_DETAILS);
    expect(parse({ billing_name: "  ", billing_address: "\n \n", billing_tax_id: "" }).data).toEqual(
      NO_BILLING_DETAILS,
    );
  });

  it("refuses what does not fit an invoice, each with its message", () => {
    expect(errorOf({ billing_name: "x".repeat(201) })).toBe(T.nameTooLong);
    expect(parse({ billing_name: "x".repeat(200) }).success).toBe(true);
    expect(errorOf({ billing_address: "x".repeat(501) })).toBe(T.addressTooLong);
    expect(errorOf({ billing_address: "a\nb\nc\nd\ne\nf\ng" })).toBe(T.addressTooManyLines);
    expect(parse({ billing_address: "a\nb\nc\nd\ne\nf" }).success).toBe(true);
    expect(errorOf({ billing_tax_id: "DE<script>" })).toBe(T.taxIdInvalid);
    expect(errorOf({ billing_tax_id: "-123" })).toBe(T.taxIdInvalid);
    expect(errorOf({ billing_tax_id: "X".repeat(33) })).toBe(T.taxIdInvalid);
    expect(parse({ billing_tax_id: "GB 123/456-78.9" }).data?.billing_tax_id).toBe("GB 123/456-78.9");
    expect(errorOf({ billing_name: "Acme\u0000" })).toBe(NOT_ALLOWED_CHARACTERS_MESSAGE);
    expect(errorOf({ billing_name: "Acme\nGmbH" })).toBe(NOT_ALLOWED_CHARACTERS_MESSAGE);
    expect(errorOf({ billing_address: "Street\u0007" })).toBe(NOT_ALLOWED_CHARACTERS_MESSAGE);
  });

  it("splits an address into its non-blank lines", () => {
    expect(addressLines(null)).toEqual([]);
    expect(addressLines(" a \n\n b ")).toEqual(["a", "b"]);
  });

  it("the invoice bills the billing name, else the person, with company, address, tax id and e-mail", () => {
    expect(
      invoiceBuyerLines({
        name: "Dana Demo",
        company: "Acme",
        email: "dana@example.com",
        details: { billing_name: "Acme GmbH", billing_address: "Hauptstr. 1\n10115 Berlin", billing_tax_id: "DE123" },
      }),
    ).toEqual({
      heading: "Acme GmbH",
      lines: ["Acme", "Hauptstr. 1", "10115 Berlin", "VAT / tax id: DE123", "dana@example.com"],
    });
    expect(invoiceBuyerLines({ name: "Dana", company: "Dana", email: "d@e.f", details: NO_BILLING_DETAILS })).toEqual({
      heading: "Dana",
      lines: ["d@e.f"],
    });
    expect(invoiceBuyerLines({ name: "", company: null, email: "d@e.f", details: NO_BILLING_DETAILS })).toEqual({
      heading: "d@e.f",
      lines: [],
    });
  });
});
