import type { Database } from "../../db/client.server";
import type { PaddleAdjustment, PaddleSubscription, PaddleTransaction } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";
import { signatureHeader } from "../webhook-signature.server";
import type { DemoDelivery } from "./demo-provider-type.server";
import { demoId } from "./demo-shapes.server";
import type { demoStore } from "./demo-store.server";

export interface DemoEvent {
  event_type: string;
  data: PaddleSubscription | PaddleTransaction | PaddleAdjustment;
}

export type DeliverDemoEvents = (events: DemoEvent[], at?: Date) => Promise<void>;

/** What each part of the demo provider works with: its records, its event delivery, the database. */
export type DemoParts = ReturnType<typeof demoStore> & { deliver: DeliverDemoEvents; db: () => Database };

/** Signs each event and hands it to the webhook endpoint, in order, as Paddle would deliver it. */
export function demoEventDelivery(webhookSecret: string, send: DemoDelivery): DeliverDemoEvents {
  return async (events, at = new Date()) => {
    for (const event of events) {
      const body = JSON.stringify({
        event_id: demoId("evt"),
        event_type: event.event_type,
        occurred_at: at.toISOString(),
        notification_id: demoId("ntf"),
        data: event.data,
      });
      const result = await send({ rawBody: body, signature: signatureHeader(webhookSecret, body) });
      if (result.status !== 200)
        throw new ProviderError(`demo ${event.event_type} was refused: ${result.body.message}`);
    }
  };
}
