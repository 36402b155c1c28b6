import { BILLING_TEXTS, hasInvoice } from "~/domain/billing";
import { requireUser } from "~/server/auth/session.server";
import { getOwnPayment } from "~/server/billing/billing-history.server";
import { getPaymentProvider } from "~/server/billing/configured-provider.server";
import { buildInvoice, invoiceNumber } from "~/server/billing/invoice.server";
import { renderInvoicePdf } from "~/server/billing/invoice-pdf.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { getLogger } from "~/server/logger.server";
import type { Route } from "./+types/billing.invoice";

/**
 * "Download invoice": for the payment's owner only (404 for anyone else, admins included). With
 * Paddle, a redirect to the PDF link Paddle issues (valid for an hour); with the demo provider,
 * the site's own PDF.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const payment = await getOwnPayment(user.id, params.paymentId);
  if (!payment) return new Response("Invoice not found", { status: 404 });
  if (!hasInvoice(payment)) return new Response("Nothing was charged: there is no invoice", { status: 404 });
  let url: string | null;
  try {
    url = await getPaymentProvider().invoiceUrl(payment.id);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    getLogger().warn({ err: error, transaction: payment.id }, "invoice link not available");
    return new Response(BILLING_TEXTS.invoiceFailed, { status: 502 });
  }
  if (url !== null) {
    if (!/^https:\/\//.test(url)) return new Response(BILLING_TEXTS.invoiceFailed, { status: 502 });
    return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "private, no-store" } });
  }
  const pdf = await renderInvoicePdf(await buildInvoice(user.id, payment));
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="invoice-${invoiceNumber(payment)}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
