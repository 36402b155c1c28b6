import { getDb } from "../db/db.server";
import { webhook_events } from "../db/schema";
import { getLogger } from "../logger.server";
import { applyWebhookEvent } from "./apply-webhook-event.server";
import { enqueueStopRenewal } from "../jobs/enqueue-stop-renewal.server";
import { parseEvent } from "./paddle-events.server";
import { verifySignature } from "./webhook-signature.server";
import { recordWebhook } from "../metrics/record.server";

export interface WebhookResult {
  status: 200 | 400 | 401 | 500;
  body: { ok: boolean; message: string };
}

/**
 * One webhook delivery: verify the signature over the raw body, parse, then record the event
 * by id and apply it in one database transaction. 200 only once the event is stored and
 * applied (a failure answers 500, so the provider retries); a redelivery changes nothing;
 * event types we do not use get 200 and are not stored.
 */
export async function receiveWebhook({
  rawBody,
  signature,
  secret,
  now = new Date(),
}: {
  rawBody: string;
  signature: string | null;
  secret: string;
  now?: Date;
}): Promise<WebhookResult> {
  const log = getLogger();
  const failure = verifySignature(secret, rawBody, signature, now);
  if (failure) {
    log.warn({ failure }, "webhook refused: bad signature");
    recordWebhook("unknown", "rejected");
    return { status: 401, body: { ok: false, message: `Invalid signature (${failure})` } };
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    recordWebhook("unknown", "rejected");
    return { status: 400, body: { ok: false, message: "The body is not JSON" } };
  }
  const parsed = parseEvent(json);
  if ("error" in parsed) {
    log.error({ problem: parsed.error }, "webhook refused: malformed event");
    recordWebhook("unknown", "rejected");
    return { status: 400, body: { ok: false, message: parsed.error } };
  }
  if (!parsed.used) {
    // Types we do not use are counted together: the label's values stay the few we handle.
    recordWebhook("other", "ignored");
    return { status: 200, body: { ok: true, message: `Ignored ${parsed.event_type}` } };
  }
  const { event } = parsed;
  try {
    const applied = await getDb().transaction(async (tx) => {
      const recorded = await tx
        .insert(webhook_events)
        .values({
          event_id: event.event_id,
          event_type: event.event_type,
          occurred_at: new Date(event.occurred_at),
          payload: json,
        })
        .onConflictDoNothing()
        .returning({ id: webhook_events.event_id });
      if (recorded.length === 0) return false;
      for (const followUp of await applyWebhookEvent(tx, event)) {
        await enqueueStopRenewal(
          tx,
          { licenseId: followUp.licenseId, subscriptionId: followUp.subscriptionId, record: false },
          followUp.occasion,
        );
      }
      return true;
    });
    recordWebhook(event.event_type, applied ? "applied" : "duplicate");
    return { status: 200, body: { ok: true, message: applied ? `Applied ${event.event_type}` : "Already received" } };
  } catch (error) {
    log.error(
      { err: error, event_id: event.event_id, event_type: event.event_type },
      "webhook event could not be applied",
    );
    recordWebhook(event.event_type, "failed");
    return { status: 500, body: { ok: false, message: "The event could not be applied; it will be retried" } };
  }
}
