import { parseNewEmail, parseSupportReason, type SupportIntent } from "~/domain/admin-support";
import { releaseFormSchema, releaseFormValues } from "~/domain/admin";
import { parseValues } from "~/lib/form";
import { refused, type ActionOutcome } from "~/server/action-outcome.server";
import type { SupportRequest } from "~/server/admin/support-action.server";
import type { ReleaseRequest } from "~/server/admin/release-actions.server";

/**
 * The admin pages' forms read into the requests their services take (support-action.server.ts,
 * release-actions.server.ts), or the refusal a wrong field gets: a 400 with the field's message.
 */

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** A support action's fields: the reason (not for a resent confirmation), the license, the new address. */
export function readSupportForm(
  intent: SupportIntent,
  form: FormData,
): { request: SupportRequest; refusal: null } | { request: null; refusal: ActionOutcome } {
  const fail = (error: string, field: string) => ({
    request: null,
    refusal: refused(400, error, { [field]: [error] }),
  });
  const { reason, error } = parseSupportReason(form.get("reason"));
  if (intent !== "support-resend-confirmation" && error !== null) return fail(error, "reason");
  let email = "";
  if (intent === "support-change-email") {
    const parsed = parseNewEmail(form.get("email"));
    if (parsed.error !== null) return fail(parsed.error, "email");
    email = parsed.email;
  }
  return { request: { intent, reason: reason ?? "", licenseId: text(form, "licenseId"), email }, refusal: null };
}

/** A release action's fields: the release checked against its schema, the flag, the installer's address. */
export function readReleaseForm(
  intent: string,
  form: FormData,
): { request: ReleaseRequest; refusal: null } | { request: null; refusal: ActionOutcome } {
  switch (intent) {
    case "save-release": {
      const parsed = parseValues(releaseFormSchema, releaseFormValues(form));
      if (!parsed.success) {
        const first = Object.values(parsed.fieldErrors)[0]![0]!;
        return { request: null, refusal: refused(400, first, parsed.fieldErrors) };
      }
      return { request: { intent, id: text(form, "id") || null, release: parsed.data }, refusal: null };
    }
    case "release-flag":
      return { request: { intent, id: text(form, "id"), flag: text(form, "flag") }, refusal: null };
    default:
      return { request: { intent: "compute-installer", downloadUrl: text(form, "download_url") }, refusal: null };
  }
}
