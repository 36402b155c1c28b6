import { data } from "react-router";
import type { ActionResult, FieldErrors, ToastInput } from "~/domain/action-result";
import {
  parseNewEmail,
  parseSupportReason,
  SUPPORT_TEXTS,
  SUPPORT_TOASTS,
  type SupportIntent,
} from "~/domain/admin-support";
import { ActionError } from "../action-error.server";
import { failure } from "../action-reply.server";
import type { AuditActor } from "../audit/audit.server";
import { getLogger } from "../logger.server";
import { changeCustomerEmail, resendCustomerConfirmation, resetCustomerTwoFactor } from "./support-account.server";
import { cancelRenewalForCustomer, reenableRenewalForCustomer } from "./support-renewal.server";

/**
 * The user page's support actions (issue 25), for the route's action: the form read and checked
 * (a 400 with the field's message when the reason or address is wrong), the service run, and a
 * toast; a refused action answers its status and text, an unexpected failure a 500.
 */
export async function supportAction(intent: SupportIntent, form: FormData, admin: AuditActor, userId: string) {
  const ok = (toast: Omit<ToastInput, "variant">) =>
    data<ActionResult>({ ok: true, toast: { ...toast, variant: "success" } });
  const fail = (status: number, description: string, fieldErrors?: FieldErrors) =>
    failure(status, { description, fieldErrors, formError: false });
  const field = (name: string) => form.get(name);
  const needsReason = intent !== "support-resend-confirmation";
  const { reason, error } = parseSupportReason(field("reason"));
  if (needsReason && error !== null) return fail(400, error, { reason: [error] });
  const licenseId = String(field("licenseId") ?? "");
  try {
    switch (intent) {
      case "support-cancel-renewal": {
        const license = await cancelRenewalForCustomer({ admin, userId, licenseId, reason: reason! });
        return ok(SUPPORT_TOASTS.renewalCancelled(license.short_id));
      }
      case "support-reenable-renewal": {
        const license = await reenableRenewalForCustomer({ admin, userId, licenseId, reason: reason! });
        return ok(SUPPORT_TOASTS.renewalReenabled(license.short_id));
      }
      case "support-change-email": {
        const parsed = parseNewEmail(field("email"));
        if (parsed.error !== null) return fail(400, parsed.error, { email: [parsed.error] });
        const { immediate } = await changeCustomerEmail({ admin, userId, newEmail: parsed.email, reason: reason! });
        return ok(SUPPORT_TOASTS.emailChanged(parsed.email, immediate));
      }
      case "support-resend-confirmation": {
        const { email } = await resendCustomerConfirmation({ admin, userId });
        return ok(SUPPORT_TOASTS.confirmationResent(email));
      }
      case "support-reset-two-factor":
        await resetCustomerTwoFactor({ admin, userId, reason: reason! });
        return ok(SUPPORT_TOASTS.twoFactorReset);
    }
  } catch (caught) {
    if (caught instanceof ActionError) {
      const fieldErrors =
        caught.message === SUPPORT_TEXTS.emailInUse || caught.message === SUPPORT_TEXTS.emailSame
          ? { email: [caught.message] }
          : undefined;
      return fail(caught.status, caught.message, fieldErrors);
    }
    getLogger().error({ err: caught, intent }, "support action failed");
    return fail(500, SUPPORT_TEXTS.failed);
  }
}
