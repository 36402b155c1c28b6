import type { ToastInput } from "./action-result";
import type { WebhookEventType } from "./webhooks";

/** The admin webhooks page's texts (docs/product.md, "Webhooks"; docs/webhooks.md). */
export const WEBHOOK_TEXTS = {
  intro:
    "Webhook endpoints receive the site's events (licenses, payments, machines, releases) as signed JSON POSTs. " +
    "Each endpoint's secret is shown once.",
  loadFailed: "Failed to load the webhook endpoints",
  actionFailed: "The endpoint could not be changed. Please try again.",
  shownOnce: "Copy this signing secret now: it is shown only once.",
  none: "No webhook endpoints yet.",
  noDeliveries: "No deliveries yet.",
  deleteConfirm: (url: string) => `Delete the endpoint ${url}? Its delivery log is deleted with it.`,
  disabledForFailing: "Disabled after failing for 24 hours",
  created: (url: string): ToastInput => ({
    title: "Endpoint created",
    description: `Copy the signing secret of ${url} now: it is shown only once.`,
    variant: "success",
  }),
  enabled: (url: string): ToastInput => ({ title: "Endpoint enabled", description: url, variant: "success" }),
  disabled: (url: string): ToastInput => ({ title: "Endpoint disabled", description: url, variant: "success" }),
  deleted: (url: string): ToastInput => ({ title: "Endpoint deleted", description: url, variant: "success" }),
  redelivered: (type: string, url: string): ToastInput => ({
    title: "Redelivery queued",
    description: `The ${type} event is sent to ${url} again.`,
    variant: "success",
  }),
} as const;

export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "license.created": "A license was bought or granted",
  "license.renewed": "A subscription renewed",
  "license.extended": "An extension was paid",
  "license.plan_changed": "A license switched to another plan",
  "license.refund_requested": "A refund was requested",
  "license.refunded": "A refund was approved",
  "license.revoked": "A license was revoked (by an admin, or for a chargeback)",
  "license.reinstated": "A chargeback was reversed and the license works again",
  "license.expired": "A license or trial expired",
  "payment.failed": "A renewal charge failed",
  "machine.activated": "A computer was activated",
  "release.published": "A release was published",
};
