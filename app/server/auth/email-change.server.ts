import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import {
  EMAIL_CHANGE_CONFIRM_HOURS,
  EMAIL_CHANGE_TEXTS as T,
  EMAIL_CHANGE_UNDO_DAYS,
} from "~/domain/email-change-texts";
import { changeEmailEmail, emailChangedEmail } from "~/emails/account-emails.server";
import { recordUserEvent } from "../audit/user-events.server";
import { announceSessionChange } from "../cache/caches.server";
import type { Database, Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { email_change_links, sessions, users, type EmailChangeLink, type EmailChangeLinkKind } from "../db/schema";
import { getEnv } from "../env.server";
import { queueMail } from "../mail/outbox.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";

/**
 * Changing the e-mail address (decision 0059). The caller has checked the current
 * password (or a fresh sign-in) first; a one-time link goes to the new address; following it makes
 * the change, ends the account's other sessions and sends the old address a link that undoes the
 * change for 7 days, ending every session. Links are rows of email_change_links (the token's
 * SHA-256 only), used once, in the transaction that acts.
 */

const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const linkUrl = (token: string) => `${getEnv().PUBLIC_URL}/email-change?token=${encodeURIComponent(token)}`;

async function insertLink(
  tx: Database | Transaction,
  values: Omit<typeof email_change_links.$inferInsert, "token_hash" | "expires_at">,
  seconds: number,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await tx
    .insert(email_change_links)
    .values({ ...values, token_hash: hashOf(token), expires_at: new Date(Date.now() + seconds * 1000) });
  return token;
}

const addressTaken = async (tx: Database | Transaction, email: string, userId: string) =>
  (
    await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, userId)))
  ).length > 0;

/**
 * Sends the confirmation link to the new address. An address another account holds gets nothing,
 * and the answer is the same (no way to learn which addresses have accounts).
 */
export async function startEmailChange(input: {
  userId: string;
  oldEmail: string;
  newEmail: string;
  keepSessionId: string | null;
}): Promise<void> {
  const db = getDb();
  const newEmail = input.newEmail.toLowerCase();
  if (await addressTaken(db, newEmail, input.userId)) return;
  const token = await insertLink(
    db,
    {
      user_id: input.userId,
      kind: "confirm",
      old_email: input.oldEmail.toLowerCase(),
      new_email: newEmail,
      keep_session_id: input.keepSessionId,
    },
    EMAIL_CHANGE_CONFIRM_HOURS * 3600,
  );
  queueMail(async () => {
    const name = (await recipientOf(input.userId))?.name ?? "";
    const message = await changeEmailEmail(mailBrand(), newEmail, name, linkUrl(token));
    // The new address is not the account's yet: the timeline names its user here.
    await recordUserEvent(getDb(), input.userId, "mail.sent", { to: newEmail, subject: message.subject });
    return message;
  }, "change of address confirmation");
}

export type LinkState = "open" | "used" | "expired" | "unknown";

/** A link as its page shows it before anything is done: what it would change, or why it no longer works. */
export async function emailChangeLink(token: string): Promise<{ state: LinkState; link: EmailChangeLink | null }> {
  if (!token) return { state: "unknown", link: null };
  const [link] = await getDb()
    .select()
    .from(email_change_links)
    .where(eq(email_change_links.token_hash, hashOf(token)));
  if (!link) return { state: "unknown", link: null };
  if (link.used_at) return { state: "used", link };
  if (link.expires_at.getTime() <= Date.now()) return { state: "expired", link };
  return { state: "open", link };
}

export type EmailChangeOutcome =
  { ok: true; link: EmailChangeLink } | { ok: false; status: 404 | 409 | 410; message: string; state?: LinkState };

/** Uses the link once (null when it is not an open link of this kind). */
async function takeLink(tx: Transaction, token: string, kind: EmailChangeLinkKind): Promise<EmailChangeLink | null> {
  const [link] = await tx
    .update(email_change_links)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(email_change_links.token_hash, hashOf(token)),
        eq(email_change_links.kind, kind),
        isNull(email_change_links.used_at),
        sql`${email_change_links.expires_at} > now()`,
      ),
    )
    .returning();
  return link ?? null;
}

/** Why a link could not be used, as the page says it. */
async function refusal(token: string): Promise<EmailChangeOutcome> {
  const { state } = await emailChangeLink(token);
  if (state === "used") return { ok: false, status: 410, message: T.used, state };
  if (state === "expired") return { ok: false, status: 410, message: T.expired, state };
  return { ok: false, status: 404, message: T.unknown, state: "unknown" };
}

/** A refusal inside a transaction; null: the link is not usable, said after the transaction (refusal). */
class Refused extends Error {
  constructor(readonly outcome: EmailChangeOutcome | null) {
    super("refused");
  }
}

/** Ends the user's sessions, all of them or all but one; every page that remembers them forgets them. */
async function endSessions(tx: Transaction, userId: string, keep: string | null): Promise<void> {
  await tx
    .delete(sessions)
    .where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
}

/** Closes every other open link of the user (an undo closes the chain of changes behind it). */
async function closeOpenLinks(tx: Transaction, userId: string, kind?: EmailChangeLinkKind): Promise<void> {
  await tx
    .update(email_change_links)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(email_change_links.user_id, userId),
        isNull(email_change_links.used_at),
        kind ? eq(email_change_links.kind, kind) : undefined,
      ),
    );
}

/**
 * The new address's link: the change is made, the account's other sessions end (the one that asked
 * stays), and the old address is told at once with the undo link.
 */
export async function confirmEmailChange(token: string): Promise<EmailChangeOutcome> {
  try {
    const { link, undoToken } = await getDb().transaction(async (tx) => {
      const link = await takeLink(tx, token, "confirm");
      // Why not is read after the transaction: inside it, a read through getDb() waits on PGlite.
      if (!link) throw new Refused(null);
      const [user] = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, link.user_id))
        .for("update");
      if (!user || user.email.toLowerCase() !== link.old_email)
        throw new Refused({ ok: false, status: 409, message: T.stale });
      if (await addressTaken(tx, link.new_email, link.user_id))
        throw new Refused({ ok: false, status: 409, message: T.taken });
      await tx
        .update(users)
        .set({ email: link.new_email, emailVerified: true, updatedAt: new Date() })
        .where(eq(users.id, link.user_id));
      await endSessions(tx, link.user_id, link.keep_session_id);
      await closeOpenLinks(tx, link.user_id, "confirm");
      const undoToken = await insertLink(
        tx,
        { user_id: link.user_id, kind: "undo", old_email: link.old_email, new_email: link.new_email },
        EMAIL_CHANGE_UNDO_DAYS * 24 * 3600,
      );
      return { link, undoToken };
    });
    await announceSessionChange(link.user_id);
    queueMail(async () => {
      const name = (await recipientOf(link.user_id))?.name ?? "";
      const message = await emailChangedEmail(mailBrand(), link.old_email, name, {
        newEmail: link.new_email,
        undoUrl: linkUrl(undoToken),
        days: EMAIL_CHANGE_UNDO_DAYS,
      });
      await recordUserEvent(getDb(), link.user_id, "mail.sent", { to: link.old_email, subject: message.subject });
      return message;
    }, "change of address notice");
    return { ok: true, link };
  } catch (error) {
    if (error instanceof Refused) return error.outcome ?? (await refusal(token));
    throw error;
  }
}

/**
 * The old address's link: the address is put back (whatever it was changed to since), every
 * session ends and every other open link of the account is closed.
 */
export async function undoEmailChange(token: string): Promise<EmailChangeOutcome> {
  try {
    const link = await getDb().transaction(async (tx) => {
      const link = await takeLink(tx, token, "undo");
      // Why not is read after the transaction: inside it, a read through getDb() waits on PGlite.
      if (!link) throw new Refused(null);
      const [user] = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, link.user_id))
        .for("update");
      if (!user) throw new Refused({ ok: false, status: 404, message: T.unknown });
      if (await addressTaken(tx, link.old_email, link.user_id))
        throw new Refused({ ok: false, status: 409, message: T.oldTaken(getEnv().SUPPORT_EMAIL) });
      await tx
        .update(users)
        .set({ email: link.old_email, emailVerified: true, updatedAt: new Date() })
        .where(eq(users.id, link.user_id));
      await endSessions(tx, link.user_id, null);
      await closeOpenLinks(tx, link.user_id);
      await recordUserEvent(tx, link.user_id, "account.email_change_undone", {
        from: user.email,
        to: link.old_email,
      });
      return link;
    });
    await announceSessionChange(link.user_id);
    return { ok: true, link };
  } catch (error) {
    if (error instanceof Refused) return error.outcome ?? (await refusal(token));
    throw error;
  }
}
