import { sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { user_events } from "../db/schema";
import { getLogger } from "../logger.server";

/**
 * The customer's timeline (decision 0038): one row per thing that happened to a user,
 * written by the code that causes it, in its transaction. Payments, refunds, renewal and offline
 * data changes are written by database triggers (migration 0021); this module writes the rest:
 * registration, confirmation, sign-ins and e-mails sent.
 */
export async function recordUserEvent(
  db: Transaction | Database,
  userId: string,
  kind: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(user_events).values({ user_id: userId, kind, details });
}

/**
 * An e-mail left the site: recorded against the account whose address it went to (or the user
 * named). Never fails the send: a missing database (a command without one) is only logged.
 */
export async function recordMailSent(message: { to: string; subject: string; userId?: string }): Promise<void> {
  try {
    const details = { to: message.to, subject: message.subject };
    if (message.userId) {
      await recordUserEvent(getDb(), message.userId, "mail.sent", details);
      return;
    }
    await getDb().execute(
      sql`INSERT INTO user_events (user_id, kind, details)
          SELECT id, 'mail.sent', ${JSON.stringify(details)}::jsonb FROM users
          WHERE lower(email) = lower(${message.to}) AND deleted_at IS NULL`,
    );
  } catch (error) {
    getLogger().warn({ err: error, subject: message.subject }, "could not record the e-mail on the timeline");
  }
}
