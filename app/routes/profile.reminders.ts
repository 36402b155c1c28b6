import { redirect } from "react-router";
import { parseReminderChoice, REMINDER_TEXTS as T } from "~/domain/customer-mail";
import { failure } from "~/http/action-reply.server";
import { requireUser } from "~/http/session-guards.server";
import { getLogger } from "~/server/logger.server";
import { setReminderEmails } from "~/server/mail/reminder-preference.server";
import { readForm } from "~/http/read-form.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/profile.reminders";

/** The profile's reminder e-mails switch posts here; the answer is /profile with a toast. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return redirect("/profile");
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const choice = parseReminderChoice(await readForm(request));
  if (!choice.ok) return failure(400, { title: T.failed, description: choice.message });
  try {
    await setReminderEmails(user.id, choice.enabled);
  } catch (error) {
    getLogger().error({ err: error }, "saving the reminder e-mail preference failed");
    return failure(500, { title: T.failed, description: "Please try again." });
  }
  return redirectWithToast("/profile", {
    title: choice.enabled ? T.on : T.off,
    description: choice.enabled
      ? T.onDescription
      : "You will still get receipts, license keys and notices about payments, refunds and cancellations.",
    variant: "success",
  });
}
