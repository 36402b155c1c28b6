import { eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { users } from "../db/schema";

/** Whether the user wants reminder e-mails (trial ends soon, renewal coming); on unless turned off. */
export async function getReminderEmails(userId: string): Promise<boolean> {
  const [row] = await getDb().select({ on: users.reminder_emails }).from(users).where(eq(users.id, userId));
  return row?.on ?? true;
}

/** Turns the user's reminder e-mails on or off (transactional e-mails are not affected). */
export async function setReminderEmails(userId: string, enabled: boolean): Promise<void> {
  await getDb().update(users).set({ reminder_emails: enabled, updatedAt: new Date() }).where(eq(users.id, userId));
}
