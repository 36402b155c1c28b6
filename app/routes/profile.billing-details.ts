import { redirect } from "react-router";
import { BILLING_DETAILS_TEXTS as T } from "~/domain/billing-details";
import { billingDetailsSchema } from "~/domain/billing-details-schema";
import { parseForm } from "~/lib/form";
import { failure } from "~/http/action-reply.server";
import { requireUser } from "~/http/session-guards.server";
import { saveBillingDetails } from "~/server/billing/billing-details.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/profile.billing-details";

/** The profile's billing details post here (decision 0040); the answer is /profile with a toast. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return redirect("/profile");
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(billingDetailsSchema, await readForm(request));
  if (!parsed.success) {
    const first = Object.values(parsed.fieldErrors).flat()[0] ?? T.failed;
    return failure(400, { title: T.failed, description: first, fieldErrors: parsed.fieldErrors });
  }
  try {
    await saveBillingDetails(user.id, parsed.data);
  } catch (error) {
    getLogger().error({ err: error }, "saving the billing details failed");
    return failure(500, { title: T.failed, description: "Please try again." });
  }
  return redirectWithToast("/profile#billing-details", {
    title: T.saved,
    description: "Your next invoices show them.",
    variant: "success",
  });
}
