import { eq } from "drizzle-orm";
import { webhookDisabledEmail } from "~/emails/webhook-notices.server";
import { getDb } from "../db/db.server";
import { user_roles, users, type WebhookEndpoint } from "../db/schema";
import { queueMail } from "../mail/outbox.server";
import { mailBrand } from "../mail/recipient.server";

/** Every admin's address and name. */
export async function adminRecipients(): Promise<{ email: string; name: string }[]> {
  return getDb()
    .select({ email: users.email, name: users.name })
    .from(user_roles)
    .innerJoin(users, eq(users.id, user_roles.user_id))
    .where(eq(user_roles.role, "admin"));
}

/** Tells every admin, through the site's outbox, that the endpoint was disabled for failing. */
export function notifyAdminsDisabled(endpoint: WebhookEndpoint, lastError: string): void {
  const facts = { url: endpoint.url, failingSince: endpoint.failing_since!, lastError };
  // The look-up runs in the outbox too (off the caller's path); each admin's e-mail is queued from it.
  queueMail(async () => {
    for (const admin of await adminRecipients()) {
      queueMail(() => webhookDisabledEmail(mailBrand(), admin.email, admin.name, facts), "webhook-disabled e-mail");
    }
    return null;
  }, "webhook-disabled e-mail");
}
