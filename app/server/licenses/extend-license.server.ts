import { DEMO_EXTENSION_DELAY_MS, extensionMonths, extensionPriceCents, isValidExtension } from "~/domain/extension";
import { isRefundLocked } from "~/domain/license-status";
import { licenseTypeLabel } from "~/domain/plans";
import { canExtendLicense } from "~/domain/license-card";
import { openExtensionCheckout, settleCheckoutCreation } from "../billing/create-checkout.server";
import { getDemoProvider, getPaymentProvider } from "../billing/configured-provider.server";
import { ActionError } from "../action-error.server";
import { getOwnBillableLicense, getOwnLicense } from "./own-license.server";
import { askProvider } from "./renewal.server";

export const EXTENSION_FAILED = "The license could not be extended. Please try again.";
/** Trials, revoked, refunded and refund-requested licenses are not extended (app/domain/license-card.ts). */
export const EXTENSION_REFUSED =
  "This license cannot be extended: trials turn into a plan by buying one, and revoked or refunded licenses stay ended.";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Prepares the payment for an extension of months (plus 12 per year): the server checks the
 * license and computes the price; the provider's transaction, once paid, is applied by the
 * webhook handler (end date + months, regenerated key). Returns the transaction to pay.
 */
export async function chargeExtension({
  userId,
  email,
  licenseId,
  months,
  years,
}: {
  userId: string;
  email: string;
  licenseId: string;
  months: number;
  years: number;
}): Promise<{ transactionId: string; amountCents: number }> {
  if (!isValidExtension(months, years)) {
    throw new ActionError(400, "Choose 0 to 12 extra months and 0 to 5 extra years, at least one month in all.");
  }
  const license = await getOwnBillableLicense(userId, licenseId, { personal: true });
  if (license.status === "revoked" || isRefundLocked(license) || !canExtendLicense(license)) {
    throw new ActionError(409, EXTENSION_REFUSED);
  }
  const amountCents = extensionPriceCents(months, years);
  const parts = [months ? plural(months, "month") : null, years ? plural(years, "year") : null]
    .filter(Boolean)
    .join(" and ");
  // Recorded first: the webhook applies an extension only for a checkout the server created.
  const checkoutId = await openExtensionCheckout({
    userId,
    licenseId: license.id,
    months: extensionMonths(months, years),
    amountCents,
  });
  let transactionId: string;
  try {
    ({ transactionId } = await askProvider(EXTENSION_FAILED, () =>
      getPaymentProvider().createExtensionCharge({
        checkoutId,
        userId,
        email,
        licenseId: license.id,
        months,
        years,
        amountCents,
        description: `${licenseTypeLabel(license.license_type)} license extension: ${parts}`,
      }),
    ));
  } catch (error) {
    await settleCheckoutCreation(checkoutId, null);
    throw error;
  }
  await settleCheckoutCreation(checkoutId, transactionId);
  return { transactionId, amountCents };
}

/**
 * An extension as the page asks for it: with Paddle, the prepared transaction the overlay pays
 * (its webhook applies the months); with the demo provider, a simulated payment (2 seconds,
 * no money moves), then the new end date. A refused extension is answered at once, before the
 * simulated payment.
 */
export async function extendLicense(
  input: Parameters<typeof chargeExtension>[0],
  { demoDelayMs = DEMO_EXTENSION_DELAY_MS }: { demoDelayMs?: number } = {},
): Promise<{ kind: "checkout"; transactionId: string } | { kind: "extended"; end_date: Date }> {
  const demo = getDemoProvider();
  if (!demo) return { kind: "checkout", transactionId: (await chargeExtension(input)).transactionId };
  const { transactionId } = await chargeExtension(input);
  await new Promise((resolve) => setTimeout(resolve, demoDelayMs));
  await askProvider(EXTENSION_FAILED, () => demo.payExtension(transactionId));
  const license = await getOwnLicense(input.userId, input.licenseId);
  return { kind: "extended", end_date: license.end_date };
}
