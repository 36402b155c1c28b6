import { data } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { requireUser } from "~/http/session-guards.server";
import { DEACTIVATE_MACHINE } from "~/domain/machine-texts";
import { deactivateFromPage } from "~/server/machines/web-deactivation.server";
import { readForm } from "~/http/read-form.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/licenses.machines.deactivate";

/**
 * POST /licenses/machines/deactivate: the owner frees one of a license's machines (decision 0041). With
 * JavaScript the card's fetcher sends js=1 and gets the answer as data (a toast); without it the form
 * posts here and is sent back to /licenses with the same toast.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") !== DEACTIVATE_MACHINE)
    return data(
      { ok: false, toast: { title: "Error", description: "Unknown action.", variant: "destructive" } },
      { status: 400 },
    );
  const reply = await deactivateFromPage({
    userId: user.id,
    licenseId: String(form.get("licenseId") ?? ""),
    machineId: String(form.get("machineId") ?? ""),
  });
  if (form.get("js") === "1")
    return data({ ok: reply.status === 200, toast: reply.toast } satisfies ActionResult, { status: reply.status });
  return redirectWithToast("/licenses", reply.toast);
}
