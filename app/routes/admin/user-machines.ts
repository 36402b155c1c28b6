import { data } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { currentAdmin } from "~/http/admin-guard.server";
import { DEACTIVATE_MACHINE } from "~/domain/machine-texts";
import { deactivateFromPage } from "~/server/machines/web-deactivation.server";
import { readForm } from "~/http/read-form.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/user-machines";

/**
 * POST /admin/users/:userId/machines: an admin deactivates one of the user's machines (always
 * allowed, audited, not counted toward the customer's limit). The admin layout's guard runs first.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const form = await readForm(request);
  if (form.get("intent") !== DEACTIVATE_MACHINE)
    return data(
      { ok: false, toast: { title: "Error", description: "Unknown action.", variant: "destructive" } },
      { status: 400 },
    );
  const reply = await deactivateFromPage({
    userId: params.userId,
    licenseId: String(form.get("licenseId") ?? ""),
    machineId: String(form.get("machineId") ?? ""),
    admin: { id: admin.id, email: admin.email },
  });
  if (form.get("js") === "1")
    return data({ ok: reply.status === 200, toast: reply.toast } satisfies ActionResult, { status: reply.status });
  return redirectWithToast(`/admin/users/${params.userId}`, reply.toast);
}
