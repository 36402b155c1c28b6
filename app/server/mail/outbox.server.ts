import { getLogger } from "../logger.server";
import { getMailer, type MailMessage } from "./mailer.server";
import { recordMail } from "../metrics/record.server";

/**
 * The site's outbox: e-mail leaves off the request path. A request decides its answer, queues
 * the e-mail and answers at once; composing (database look-ups, tokens) and sending (SMTP, the
 * dev mailbox) happen afterwards in this process, and a failure is logged, never answered.
 * So the answer takes the same time whether or not an e-mail goes out (no account enumeration
 * by timing, decision 0014), and a slow or failing SMTP server never slows or fails a page.
 *
 * `queueMail` is the one seam: moving e-mail onto durable jobs changes only its body.
 */

type Compose = () => MailMessage | null | Promise<MailMessage | null>;

const pending = new Set<Promise<void>>();

/**
 * Sends an e-mail after the current request: `compose` runs once the caller has gone on (it may
 * look things up and return null to send nothing), then the process's mailer sends the result.
 */
export function queueMail(compose: Compose | MailMessage, what = "e-mail"): void {
  const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      const message = typeof compose === "function" ? await compose() : compose;
      if (!message) return;
      try {
        await getMailer().send(message);
        recordMail(true);
      } catch (error) {
        recordMail(false);
        getLogger().error({ err: error, to: message.to, subject: message.subject }, `could not send the ${what}`);
      }
    })
    .catch((error: unknown) => getLogger().error({ err: error }, `could not prepare the ${what}`))
    .finally(() => pending.delete(task));
  pending.add(task);
}

/** Resolves once every queued e-mail (including any queued meanwhile) has been sent or has failed. */
export async function flushMail(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** How many e-mails are queued and not yet sent. */
export function pendingMailCount(): number {
  return pending.size;
}
