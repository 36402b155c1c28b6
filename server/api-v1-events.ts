import express from "express";
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "../app/domain/webhooks";
import { ApiInputError, readNonce, readQuery } from "../app/server/license-api/api-input.server";
import { EVENTS_PAGE_MAX, listRecentEvents } from "../app/server/webhooks/list-events.server";
import { answer } from "./api-answer";
import { authorize } from "./api-v1-releases";

/**
 * `GET /api/v1/events?type=&limit=` (decision 0044): the newest events for the vendor's
 * systems, with an API token of scope events:read; the same {id, type, occurred_at, data} the
 * webhooks deliver (docs/webhooks.md). Signed like the rest of /api/v1.
 */
export const eventsApi = express.Router();

function readLimit(given: string | undefined): number {
  if (given === undefined) return 50;
  const limit = /^\d{1,3}$/.test(given) ? Number(given) : NaN;
  if (!(limit >= 1 && limit <= EVENTS_PAGE_MAX)) {
    throw new ApiInputError("limit", `limit must be a whole number from 1 to ${EVENTS_PAGE_MAX}.`);
  }
  return limit;
}

eventsApi.get("/events", async (req, res) => {
  const params = readQuery(req.originalUrl);
  res.locals.apiNonce = readNonce(params.get("nonce"), { required: false });
  if (!(await authorize(req, res, "events:read"))) return;
  const type = params.get("type") ?? null;
  if (type !== null && !isWebhookEventType(type)) {
    throw new ApiInputError("type", `Unknown event type ${type}: use ${WEBHOOK_EVENT_TYPES.join(", ")}.`);
  }
  answer(res, 200, { events: await listRecentEvents({ type, limit: readLimit(params.get("limit")) }) });
});
