import nodemailer from "nodemailer";
import { getEnv } from "../env.server";
import { getLogger } from "../logger.server";

/** What /readyz says of e-mail: SMTP reachable or not, the dev mailbox, or no e-mail at all. */
export type MailerHealth = { status: "ok" } | { status: "down" } | { status: "demo mailbox" } | { status: "disabled" };

const TIMEOUT_MS = 3000;
/** A probe's result is reused this long: a load balancer asking every second does not open an SMTP session each time. */
const KEEP_MS = 30_000;

let last: { at: number; url: string; result: Promise<MailerHealth> } | undefined;

/**
 * The mailer's health: with SMTP_URL, an SMTP handshake (nodemailer's verify: connect, greet,
 * authenticate) within 3 seconds, its result kept 30 seconds; without, the dev mailbox (embedded
 * mode, kept in the database) or disabled (production with EMAIL_DISABLED).
 */
export function mailerHealth(now = Date.now()): Promise<MailerHealth> {
  const env = getEnv();
  if (!env.SMTP_URL) return Promise.resolve({ status: env.embedded ? "demo mailbox" : "disabled" });
  if (last && last.url === env.SMTP_URL && now - last.at < KEEP_MS) return last.result;
  const result = verifySmtp(env.SMTP_URL);
  last = { at: now, url: env.SMTP_URL, result };
  return result;
}

async function verifySmtp(url: string): Promise<MailerHealth> {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS / 1000} seconds`)), TIMEOUT_MS);
  });
  try {
    await Promise.race([transport.verify(), timeout]);
    return { status: "ok" };
  } catch (error) {
    // Logged, not answered: /readyz is public and the reason may name the SMTP host.
    getLogger().warn({ err: error }, "the SMTP server did not answer the readiness check");
    return { status: "down" };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
