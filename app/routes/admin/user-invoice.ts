import { currentAdmin } from "~/http/admin-guard.server";
import { invoiceResponse } from "~/server/billing/invoice-response.server";
import type { Route } from "./+types/user-invoice";

/** Support reads a customer's invoice from the user's admin page: admins only (the admin layout's guard), the user's own payments only. */
export async function loader({ params, context }: Route.LoaderArgs) {
  currentAdmin(context);
  return invoiceResponse(params.userId, params.paymentId);
}
