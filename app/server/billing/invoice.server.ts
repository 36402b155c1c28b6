import { and, eq } from "drizzle-orm";
import { formatMoney, paymentDescription } from "~/domain/billing";
import { invoiceBuyerLines } from "~/domain/billing-details";
import { chargeStatusText } from "~/domain/charge-words";
import { formatDate } from "~/domain/format-date";
import { getDb } from "../db/db.server";
import { demo_billing, profiles, users } from "../db/schema";
import { getEnv } from "../env.server";
import type { getOwnPayment } from "./billing-history.server";

/** Everything an invoice prints, read from the payment, the buyer's profile and the provider's transaction. */
export interface InvoiceDocument {
  number: string;
  issuedAt: Date;
  transactionId: string;
  licenseShortId: string;
  /** The seller from configuration: legal name, address lines, tax id, e-mail and website. */
  seller: { name: string; address: string[]; taxId: string | null; email: string; website: string };
  /** Who is billed (the billing name, else the person) and the lines under it (decision 0040). */
  buyer: { heading: string; lines: string[]; email: string };
  lines: { description: string; detail: string | null; quantity: number; amountCents: number }[];
  subtotalCents: number;
  taxCents: number;
  /** The tax rate as a percentage ("20"), when the transaction names one. */
  taxRate: string | null;
  totalCents: number;
  currency: string;
  refundedCents: number;
  status: string;
}

type OwnPayment = NonNullable<Awaited<ReturnType<typeof getOwnPayment>>>;

/** The demo transaction's totals as Paddle shapes them (strings in minor units). */
interface StoredTransaction {
  billing_period?: { starts_at: string; ends_at: string } | null;
  /** The subscription's items after the transaction: a team's seats. */
  items?: { quantity?: number }[];
  details?: {
    totals?: { subtotal?: string; tax?: string; total?: string };
    tax_rates_used?: { tax_rate?: string }[];
    /** A seat change's line: the added seats, prorated for the part of the period left. */
    line_items?: {
      quantity?: number;
      proration?: { billing_period?: { starts_at: string; ends_at: string } } | null;
    }[];
  };
}

type InvoiceLine = InvoiceDocument["lines"][number];

/**
 * The line of a team's seat change: the seats added, from how many to how many, and the
 * part of the period they are charged for, as the provider's prorated transaction names them.
 */
function seatsLine(base: InvoiceLine, txn: StoredTransaction, licenseShortId: string): InvoiceLine {
  const line = txn.details?.line_items?.[0];
  const added = Math.trunc(Number(line?.quantity ?? 0));
  const total = Math.trunc(Number(txn.items?.[0]?.quantity ?? 0));
  const prorated = line?.proration?.billing_period ?? txn.billing_period;
  if (added < 1 || total <= added) return base;
  const detail = [
    `${added} ${added === 1 ? "seat" : "seats"} added (from ${total - added} to ${total} seats)`,
    prorated ? `prorated for ${formatDate(prorated.starts_at)} to ${formatDate(prorated.ends_at)}` : null,
    `License ${licenseShortId}`,
  ]
    .filter(Boolean)
    .join(", ");
  return { ...base, detail, quantity: added };
}

const cents = (value: string | undefined, fallback: number) =>
  value !== undefined && /^-?\d+$/.test(value) ? Number(value) : fallback;

/** "INV-20261123-7F3A9C": the date it was billed and the end of the transaction id. */
export function invoiceNumber(payment: { id: string; billed_at: Date }): string {
  const day = payment.billed_at.toISOString().slice(0, 10).replace(/-/g, "");
  return `INV-${day}-${payment.id.slice(-6).toUpperCase()}`;
}

/** The invoice of one of the user's payments, as the demo provider issues it. */
export async function buildInvoice(userId: string, payment: OwnPayment): Promise<InvoiceDocument> {
  const env = getEnv();
  const db = getDb();
  const [buyer] = await db
    .select({
      email: users.email,
      name: users.name,
      full_name: profiles.full_name,
      company: profiles.company_name,
      billing_name: profiles.billing_name,
      billing_address: profiles.billing_address,
      billing_tax_id: profiles.billing_tax_id,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  const [stored] = await db
    .select({ data: demo_billing.data })
    .from(demo_billing)
    .where(and(eq(demo_billing.id, payment.id), eq(demo_billing.kind, "transaction")));
  const txn = (stored?.data ?? {}) as StoredTransaction;
  const totalCents = cents(txn.details?.totals?.total, payment.amount_cents);
  const taxCents = cents(txn.details?.totals?.tax, 0);
  const subtotalCents = cents(txn.details?.totals?.subtotal, totalCents - taxCents);
  const rate = txn.details?.tax_rates_used?.[0]?.tax_rate;
  const period = txn.billing_period;
  const line: InvoiceLine = {
    description: `${env.PRODUCT_NAME}: ${paymentDescription(payment)}`,
    detail: [
      `License ${payment.license_short_id}`,
      period ? `${formatDate(period.starts_at)} to ${formatDate(period.ends_at)}` : null,
    ]
      .filter(Boolean)
      .join(", "),
    quantity: 1,
    amountCents: subtotalCents,
  };
  return {
    number: invoiceNumber(payment),
    issuedAt: new Date(payment.billed_at),
    transactionId: payment.id,
    licenseShortId: payment.license_short_id,
    seller: {
      name: env.SELLER_NAME ?? env.PRODUCT_NAME,
      // One line, or several separated by " | " or newlines ("Street 1 | 10115 Berlin | Germany").
      address: (env.SELLER_ADDRESS ?? "")
        .split(/\s*(?:\||\n)\s*/)
        .map((line) => line.trim())
        .filter(Boolean),
      taxId: env.SELLER_TAX_ID ?? null,
      email: env.SUPPORT_EMAIL,
      website: env.PUBLIC_URL,
    },
    buyer: {
      ...invoiceBuyerLines({
        name: buyer?.full_name || buyer?.name || "",
        company: buyer?.company || null,
        email: buyer?.email ?? "",
        details: {
          billing_name: buyer?.billing_name ?? null,
          billing_address: buyer?.billing_address ?? null,
          billing_tax_id: buyer?.billing_tax_id ?? null,
        },
      }),
      email: buyer?.email ?? "",
    },
    lines: [payment.kind === "seats" ? seatsLine(line, txn, payment.license_short_id) : line],
    subtotalCents,
    taxCents,
    taxRate: rate !== undefined && /^\d+(\.\d+)?$/.test(rate) ? String(Math.round(Number(rate) * 10_000) / 100) : null,
    totalCents,
    currency: payment.currency,
    refundedCents: payment.refunded_cents,
    status: chargeStatusText(payment),
  };
}

/** Money on the invoice. */
export const money = (invoice: Pick<InvoiceDocument, "currency">, amount: number) =>
  formatMoney(amount, invoice.currency);
