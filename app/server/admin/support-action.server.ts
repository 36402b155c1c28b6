import { SUPPORT_TEXTS, SUPPORT_TOASTS, type SupportIntent } from "~/domain/admin-support";
import { ActionError } from "../action-error.server";
import { done, refused, type ActionOutcome } from "../action-outcome.server";
import type { AuditActor } from "../audit/audit.server";
import { getLogger } from "../logger.server";
import { changeCustomerEmail, resendCustomerConfirmation, resetCustomerTwoFactor } from "./support-account.server";
import { cancelRenewalForCustomer, reenableRenewalForCustomer } from "./support-renewal.server";

/**
 * A support action as the route read it from the form: the reason (checked already, empty for a
 * resent confirmation), the license it names and, for a changed address, the new e-mail (checked already).
 */
export interface SupportRequest {
  intent: SupportIntent;
  reason: string;
  licenseId: string;
  email: string;
}

/**
 * The user page's support actions (decision 0038): the service run and its toast; a refused action
 * answers its status and text, an unexpected failure a 500.
 */
export async function supportAction(
  { intent, reason, licenseId, email }: SupportRequest,
  admin: AuditActor,
  userId: string,
): Promise<ActionOutcome> {
  try {
    switch (intent) {
      case "support-cancel-renewal": {
        const license = await cancelRenewalForCustomer({ admin, userId, licenseId, reason });
        return done(SUPPORT_TOASTS.renewalCancelled(license.short_id));
      }
      case "support-reenable-renewal": {
        const license = await reenableRenewalForCustomer({ admin, userId, licenseId, reason });
        return done(SUPPORT_TOASTS.renewalReenabled(license.short_id));
      }
      case "support-change-email": {
        const { immediate } = await changeCustomerEmail({ admin, userId, newEmail: email, reason });
        return done(SUPPORT_TOASTS.emailChanged(email, immediate));
      }
      case "support-resend-confirmation": {
        const { email: sentTo } = await resendCustomerConfirmation({ admin, userId });
        return done(SUPPORT_TOASTS.confirmationResent(sentTo));
      }
      case "support-reset-two-factor":
        await resetCustomerTwoFactor({ admin, userId, reason });
        return done(SUPPORT_TOASTS.twoFactorReset);
    }
  } catch (caught) {
    if (caught instanceof ActionError) {
      const fieldErrors =
        caught.message === SUPPORT_TEXTS.emailInUse || caught.message === SUPPORT_TEXTS.emailSame
          ? { email: [caught.message] }
          : undefined;
      return refused(caught.status, caught.message, fieldErrors);
    }
    getLogger().error({ err: caught, intent }, "support action failed");
    return refused(500, SUPPORT_TEXTS.failed);
  }
}
