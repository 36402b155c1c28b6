import { and, eq, inArray } from "drizzle-orm";
import { CHECKOUT_ERRORS } from "~/lib/checkout";
import { ActionError } from "../../action-error.server";
import { getDb } from "../../db/db.server";
import { checkouts } from "../../db/schema";
import { getLogger } from "../../logger.server";
import { getDemoProvider } from "../configured-provider.server";
import { ProviderError } from "../payment-provider.server";

export const CHECKOUT_ALREADY_PAID = "This checkout was paid already. Your license is on your licenses page.";

/**
 * The demo overlay's Pay: only for the signed-in user's own open plan checkout, paid once (the
 * demo provider refuses a second Pay of the same transaction), applied through the webhook.
 */
export async function payDemoCheckout({
  userId,
  transactionId,
}: {
  userId: string;
  transactionId: unknown;
}): Promise<{ transactionId: string }> {
  const demo = getDemoProvider();
  if (!demo) throw new ActionError(404, CHECKOUT_ERRORS.unavailable);
  if (typeof transactionId !== "string" || !/^txn_[A-Za-z0-9_]{1,100}$/.test(transactionId)) {
    throw new ActionError(400, CHECKOUT_ERRORS.openFailed);
  }
  const [checkout] = await getDb()
    .select({ status: checkouts.status })
    .from(checkouts)
    .where(
      and(
        eq(checkouts.transaction_id, transactionId),
        eq(checkouts.user_id, userId),
        inArray(checkouts.kind, ["plan", "team"]),
      ),
    );
  if (!checkout) throw new ActionError(404, CHECKOUT_ERRORS.openFailed);
  if (checkout.status === "completed") throw new ActionError(409, CHECKOUT_ALREADY_PAID);
  if (checkout.status !== "open") throw new ActionError(409, CHECKOUT_ERRORS.openFailed);
  try {
    await demo.payCheckout(transactionId);
  } catch (error) {
    if (error instanceof ProviderError && /paid already/.test(error.message))
      throw new ActionError(409, CHECKOUT_ALREADY_PAID);
    getLogger().error({ err: error, transactionId }, "demo checkout payment failed");
    throw new ActionError(502, CHECKOUT_ERRORS.openFailed);
  }
  return { transactionId };
}
