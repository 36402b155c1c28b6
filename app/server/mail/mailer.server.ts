import nodemailer from "nodemailer";
import { desc } from "drizzle-orm";
import { recordMailSent } from "../audit/user-events.server";
import { getDb } from "../db/db.server";
import { dev_mails } from "../db/schema";
import { getEnv } from "../env.server";
import { getLogger } from "../logger.server";

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface Mailer {
  send: (message: MailMessage) => Promise<void>;
}

let mailer: Mailer | undefined;

/**
 * SMTP when SMTP_URL is set; otherwise the dev mailbox (embedded mode only). Every e-mail sent is
 * recorded on its recipient's timeline (decision 0038): which one, when.
 */
export function getMailer(): Mailer {
  mailer ??= createMailer();
  const inner = mailer;
  return {
    send: async (message) => {
      await inner.send(message);
      await recordMailSent(message);
    },
  };
}

/** For tests: replace the process's mailer. */
export function setMailer(next: Mailer | undefined): void {
  mailer = next;
}

function fromAddress(): string {
  const env = getEnv();
  return env.MAIL_FROM ?? `"${env.PRODUCT_NAME.replace(/"/g, "")}" <${env.SUPPORT_EMAIL}>`;
}

export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    send: async (message) => {
      await transport.sendMail({ from, ...message });
    },
  };
}

function createMailer(): Mailer {
  const env = getEnv();
  if (env.SMTP_URL) return createSmtpMailer(env.SMTP_URL, fromAddress());
  if (!env.embedded) {
    // Production without SMTP: say so loudly rather than drop mail silently.
    return {
      send: async (message) => {
        getLogger().error({ to: message.to, subject: message.subject }, "SMTP_URL is not set: e-mail not sent");
        throw new Error("E-mail is not configured (SMTP_URL)");
      },
    };
  }
  return {
    send: async (message) => {
      await getDb()
        .insert(dev_mails)
        .values({ ...message, from: fromAddress() });
      getLogger().info({ to: message.to, subject: message.subject }, "mail kept in the dev mailbox");
    },
  };
}

/** The dev mailbox, newest first. */
export async function listDevMails(limit = 50) {
  return getDb().select().from(dev_mails).orderBy(desc(dev_mails.created_at)).limit(limit);
}
