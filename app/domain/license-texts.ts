import { formatDate } from "./format-date";
import { formatMoney } from "./billing";

const CANCEL_RENEWAL_BUTTON = "Cancel auto-renewal";

/** The licenses page's renewal buttons; the renewal reminder e-mail names the same button. */
export const RENEWAL_TEXTS = {
  cancelButton: CANCEL_RENEWAL_BUTTON,
  howToCancel: (renewsOn: Date | string) =>
    `To stop the renewal, open your licenses page and choose "${CANCEL_RENEWAL_BUTTON}" before ${formatDate(renewsOn)}: your license keeps working until then.`,
} as const;

/** The licenses page's toasts (docs/product.md, "Licenses"), in one place. */
export const LICENSE_TOASTS = {
  cancelled: {
    title: "Subscription Cancelled",
    description: "Your subscription will be cancelled at the end of the current billing period.",
  },
  reenabled: { title: "Auto-Renewal Enabled", description: "Your license will renew automatically again." },
  /** Each currency's total on its own ("€94.99 + $19.00"): a euro plan's extensions are in US dollars. */
  refundRequested: (totals: readonly { currency: string; refundCents: number }[]) => ({
    title: "Refund Requested",
    description: `A refund of ${totals.map((t) => formatMoney(t.refundCents, t.currency)).join(" + ")} was requested. It usually takes a few days to reach your card.`,
  }),
  updated: (keyRegenerated: boolean) => ({
    title: "License updated",
    description: `Offline data saved${keyRegenerated ? " and new encrypted key generated" : ""}.`,
  }),
} as const;

export const LICENSE_ERRORS = {
  load: "Failed to load licenses",
  noSubscription: "No subscription ID found for this license",
  cancel: "Failed to cancel subscription",
  reenable: "Failed to re-enable renewal",
  refund: "Failed to process refund",
  update: "Failed to update license",
  newKey: "Failed to generate new license key",
} as const;
