import { data, Link } from "react-router";
import { AdminUserPage, BackToUsers } from "~/components/admin/admin-user-page";
import { AdminUserMachines } from "~/components/admin/admin-user-machines";
import { AdminUserTeams } from "~/components/admin/admin-user-teams";
import type { AdminUserTeamView } from "~/domain/admin-team";
import { teamsOfUser } from "~/server/teams/team-views.server";
import { ADMIN_ERRORS, ADMIN_TOASTS, parsePage, parseRevokeReason, parseTesterDays } from "~/domain/admin";
import type { ActionResult, FieldErrors, ToastInput } from "~/domain/action-result";
import { pageTitle } from "~/lib/meta";
import { ActionError, isUuid } from "~/server/action-error.server";
import { failure, outcomeReply } from "~/http/action-reply.server";
import { readSupportForm } from "~/http/admin-forms.server";
import {
  addTesterLicense,
  resendLicenseEmail,
  resetOfflineData,
  revokeLicense,
} from "~/server/admin/manage-licenses.server";
import { isSupportIntent } from "~/domain/admin-support";
import { supportAction } from "~/server/admin/support-action.server";
import { getUserDetails } from "~/server/admin/user-details.server";
import { staffRefund } from "~/server/admin/staff-refund.server";
import { sendPaymentLink } from "~/server/admin/send-payment-link.server";
import { formatMoney } from "~/domain/billing";
import { STAFF_REFUND_TEXTS } from "~/domain/staff-refund";
import { adminUserMachines } from "~/server/machines/list-machines.server";
import { currentAdmin } from "~/http/admin-guard.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/user";

/** The teams the user belongs to, with their role. */
async function userTeams(userId: string): Promise<AdminUserTeamView[]> {
  const rows = await teamsOfUser(userId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    hasSeat: row.seatLicenseId !== null,
    seatsPaid: row.seatsPaid,
  }));
}

/** A user's own page in the admin area (decision 0025): admins only (the admin layout's guard). */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  currentAdmin(context);
  const now = new Date().toISOString();
  try {
    const timelinePage = parsePage(new URL(request.url).searchParams.get("timeline"));
    const user = await getUserDetails(params.userId, timelinePage);
    if (!user) return data({ user: null, error: "User not found.", now, machines: [], teams: [] }, { status: 404 });
    return {
      user,
      error: null,
      now,
      machines: await adminUserMachines(params.userId),
      teams: await userTeams(user.id),
    };
  } catch (error) {
    getLogger().error({ err: error }, "admin user page failed");
    return data({ user: null, error: ADMIN_ERRORS.loadUser, now, machines: [], teams: [] }, { status: 500 });
  }
}

/**
 * Support actions on this user's licenses (the admin layout's guard has refused everyone but
 * admins); each checks that the license is this user's.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const userId = params.userId;
  const ok = (toast: Omit<ToastInput, "variant">) =>
    data<ActionResult>({ ok: true, toast: { ...toast, variant: "success" } });
  const fail = (status: number, description: string, fieldErrors?: FieldErrors) =>
    failure(status, { description, fieldErrors, formError: false });
  const failures: Record<string, string> = {
    revoke: ADMIN_ERRORS.revoke,
    "add-tester": ADMIN_ERRORS.addTester,
    "reset-offline": ADMIN_ERRORS.resetOffline,
    "resend-license": ADMIN_ERRORS.resend,
    "send-payment-link": ADMIN_ERRORS.paymentLink,
    "refund-payment": STAFF_REFUND_TEXTS.failed,
  };
  if (!isUuid(userId)) return fail(404, "User not found");
  if (isSupportIntent(intent)) {
    const { request: support, refusal } = readSupportForm(intent, form);
    return outcomeReply(refusal ?? (await supportAction(support!, admin, userId)));
  }
  try {
    switch (intent) {
      case "revoke": {
        const { reason, error } = parseRevokeReason(form.get("reason"));
        if (error !== null) return fail(400, error, { reason: [error] });
        await revokeLicense({ admin, licenseId: String(form.get("licenseId") ?? ""), reason, userId });
        return ok(ADMIN_TOASTS.revoked);
      }
      case "add-tester": {
        const { days, error } = parseTesterDays(form.get("days"));
        if (error !== null) return fail(400, error, { days: [error] });
        await addTesterLicense({ admin, userId, days });
        return ok(ADMIN_TOASTS.testerAdded(days));
      }
      case "reset-offline":
        await resetOfflineData({ admin, licenseId: String(form.get("licenseId") ?? ""), userId });
        return ok(ADMIN_TOASTS.offlineReset);
      case "send-payment-link": {
        // The failed-payment e-mail again, with its Update payment method link (decision 0060).
        const { email } = await sendPaymentLink({ admin, licenseId: String(form.get("licenseId") ?? ""), userId });
        return ok(ADMIN_TOASTS.paymentLinkSent(email));
      }
      case "resend-license": {
        const { email } = await resendLicenseEmail({ admin, licenseId: String(form.get("licenseId") ?? ""), userId });
        return ok(ADMIN_TOASTS.resent(email));
      }
      case "refund-payment": {
        // Support's refund of one payment (decision 0036): app/server/admin/staff-refund.server.ts.
        const refund = await staffRefund({
          admin,
          userId,
          transactionId: String(form.get("transactionId") ?? ""),
          amount: form.get("amountCents"),
          reason: form.get("reason"),
        });
        return ok(STAFF_REFUND_TEXTS.done(formatMoney(refund.amountCents, refund.currency)));
      }
      default:
        return fail(400, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof ActionError) return fail(error.status, error.message);
    getLogger().error({ err: error, intent }, "admin user action failed");
    return fail(500, failures[intent] ?? "The action failed.");
  }
}

export default function AdminUser({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-12 sm:px-6">
      <BackToUsers />
      {loaderData.user ? (
        <>
          <AdminUserPage user={loaderData.user} now={loaderData.now} />
          <section aria-labelledby="user-teams" className="flex flex-col gap-3">
            <h2 id="user-teams" className="text-xl font-semibold">
              Teams
            </h2>
            <AdminUserTeams teams={loaderData.teams} />
          </section>
          <AdminUserMachines userId={loaderData.user.id} licenses={loaderData.machines} />
        </>
      ) : (
        <div className="flex flex-col gap-3">
          <h1 className="text-2xl font-semibold">{loaderData.error}</h1>
          <Link to="/admin/users" className="underline underline-offset-2">
            Back to the user list
          </Link>
        </div>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, data: loaded }) => [
  pageTitle(
    matches,
    loaded?.user ? `${loaded.user.full_name || loaded.user.email} · Administration` : "Administration",
  ),
  { name: "robots", content: "noindex" },
];
