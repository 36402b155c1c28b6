import { data, redirect } from "react-router";
import { PAYMENT_PROBLEM_TEXTS, type PaymentMethodAnswer } from "~/domain/past-due";
import { ActionError } from "~/server/action-error.server";
import { failure } from "~/http/action-reply.server";
import { requireUser } from "~/http/session-guards.server";
import { getDemoProvider } from "~/server/billing/configured-provider.server";
import { payDemoPastDue, startPaymentMethodUpdate } from "~/server/billing/update-payment-method.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/billing.payment-method";

const fail = (status: number, description: string) => failure(status, { description, formError: false });

/**
 * A past-due license card's "Update payment method" (decision 0023): `start` gives the transaction
 * the overlay opens (Paddle's, or the demo's); `demo-pay` is the demo overlay's payment. Only the
 * license's owner (404 otherwise), only while a payment is due (409 otherwise).
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const licenseId = String(form.get("licenseId") ?? "");
  const intent = form.get("intent");
  try {
    switch (intent) {
      case "start": {
        const { transactionId } = await startPaymentMethodUpdate({ userId: user.id, licenseId });
        return data<PaymentMethodAnswer>({ ok: true, toast: null, transactionId, demo: getDemoProvider() !== null });
      }
      case "demo-pay":
        await payDemoPastDue({ userId: user.id, licenseId });
        return data<PaymentMethodAnswer>({
          ok: true,
          recovered: true,
          toast: {
            title: PAYMENT_PROBLEM_TEXTS.updated,
            description: PAYMENT_PROBLEM_TEXTS.updatedDetail,
            variant: "success",
          },
        });
      default:
        return fail(400, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error, intent }, "payment method update failed");
    return fail(500, PAYMENT_PROBLEM_TEXTS.updateFailed);
  }
}

/** Nothing to show here: the button lives on the license card. */
export function loader() {
  return redirect("/licenses");
}
