import { codeOnlySchema, disableTwoFactorSchema, passwordOnlySchema } from "~/domain/account-schemas";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import type { AccountIntent } from "~/domain/account-views";
import { parseForm } from "~/lib/form";
import { regenerateRecoveryCodes } from "./recovery-codes.server";
import { refuse, renewed, reply } from "./account-replies.server";
import { getCurrentSession, type SessionUser } from "./session.server";
import { announceSessionChange } from "../cache/caches.server";
import { confirmEnrolment, disableTwoFactor, startEnrolment } from "./two-factor.server";

export type TwoFactorIntent = Extract<
  AccountIntent,
  "two-factor-start" | "two-factor-confirm" | "two-factor-disable" | "recovery-codes-regenerate"
>;

export const TWO_FACTOR_INTENTS: readonly TwoFactorIntent[] = [
  "two-factor-start",
  "two-factor-confirm",
  "two-factor-disable",
  "recovery-codes-regenerate",
];

/**
 * The profile's two-factor actions: set up (password → secret and recovery codes), confirm with a
 * code, turn off (password and code; never for admins), and make new recovery codes (password; the
 * old ones stop working). `req` carries the client address for Better Auth; Better Auth's errors
 * are thrown for accountAction to answer.
 */
export async function twoFactorAction(
  intent: TwoFactorIntent,
  form: FormData,
  request: Request,
  req: Request,
  user: SessionUser,
) {
  switch (intent) {
    case "two-factor-start": {
      const parsed = parseForm(passwordOnlySchema, form);
      if (!parsed.success) return reply(intent, 400, { fieldErrors: parsed.fieldErrors });
      return reply(intent, 200, { enrolment: await startEnrolment(req, parsed.data.password) });
    }
    case "two-factor-confirm": {
      const parsed = parseForm(codeOnlySchema, form);
      if (!parsed.success) return reply(intent, 400, { fieldErrors: parsed.fieldErrors });
      const headers = await confirmEnrolment(req, user.id, parsed.data.code);
      await announceSessionChange(user.id);
      return renewed(request, intent, { title: A.twoFactorEnabled, variant: "success" }, headers, "two-factor");
    }
    case "two-factor-disable": {
      const parsed = parseForm(disableTwoFactorSchema, form);
      if (!parsed.success) return reply(intent, 400, { fieldErrors: parsed.fieldErrors });
      const { role } = await getCurrentSession(request);
      if (role === "admin") return refuse(intent, 403, A.twoFactorFailed, A.twoFactorAdminRequired);
      const headers = await disableTwoFactor(req, user.id, parsed.data.password, parsed.data.code);
      await announceSessionChange(user.id);
      return renewed(request, intent, { title: A.twoFactorDisabled, variant: "success" }, headers, "two-factor");
    }
    case "recovery-codes-regenerate": {
      const parsed = parseForm(passwordOnlySchema, form);
      if (!parsed.success) return reply(intent, 400, { fieldErrors: parsed.fieldErrors });
      const codes = await regenerateRecoveryCodes(req, user.id, parsed.data.password);
      return reply(intent, 200, {
        recoveryCodes: { codes, madeAt: new Date().toISOString() },
        toast: { title: A.recoveryCodesMade, description: A.recoveryCodesMadeDescription, variant: "success" },
      });
    }
  }
}
