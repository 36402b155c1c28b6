import { requireUser } from "~/http/session-guards.server";
import { invoiceResponse } from "~/server/billing/invoice-response.server";
import type { Route } from "./+types/billing.invoice";

/** "Download invoice": for the payment's owner only (404 for anyone else, admins included). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return invoiceResponse(user.id, params.paymentId);
}
