import { requireAdmin } from "~/server/auth/session.server";
import { invoiceResponse } from "~/server/billing/invoice-response.server";
import type { Route } from "./+types/admin.users.invoice";

/** Support reads a customer's invoice from the user's admin page: admins only, the user's own payments only. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  return invoiceResponse(params.userId, params.paymentId);
}
