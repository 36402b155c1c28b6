import { BILLING_TEXTS, hasInvoice } from "~/domain/billing";
import { getLogger } from "../logger.server";
import { getOwnPayment } from "./billing-history.server";
import { getPaymentProvider } from "./configured-provider.server";
import { buildInvoice, invoiceNumber } from "./invoice.server";
import { ProviderError } from "./payment-provider.server";

/**
 * The invoice of one of `userId`'s payments: with Paddle, a redirect to the PDF link Paddle issues
 * (valid for an hour); with the demo provider, the site's own PDF. 404 when the payment is not
 * that user's or charged nothing. The caller decides who may ask (the owner, or an admin).
 */
export async function invoiceResponse(userId: string, paymentId: string): Promise<Response> {
  const payment = await getOwnPayment(userId, paymentId);
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
  // Loaded when an invoice is asked for: pdf-lib took a quarter of a second of every server start (decision 0081).
  const { renderInvoicePdf } = await import("./invoice-pdf.server");
  const pdf = await renderInvoicePdf(await buildInvoice(userId, payment));
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="invoice-${invoiceNumber(payment)}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
