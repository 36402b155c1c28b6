import { formatDate } from "./format-date";
import type { LicenseStateFacts } from "./license-state";
import { REFUND_WINDOW_DAYS } from "./plans";
import { refundRefusal } from "./refund-ledger";

/**
 * Where the Request Refund button would be on a license card, the short reason there is none
 * (decision 0036): the window passed, a tester license, an expired one, one not bought here.
 * Null when the license can be refunded, or when the card already says why elsewhere (revoked,
 * refunded, a refund requested: the card's notice; a trial: its trial section says what happens
 * when it ends and that cancelling costs nothing, decision 0037; an expired one: its ended note, decision 0060).
 */
export function refundNote(license: LicenseStateFacts, now: Date): string | null {
  const refusal = refundRefusal(license, now);
  if (!refusal) return null;
  switch (refusal.reason) {
    case "window-passed":
      return `No refund: the ${REFUND_WINDOW_DAYS}-day refund window ended on ${formatDate(license.refund_eligible_until!)}.`;
    case "tester":
      return "No refund: tester licenses are free.";
    case "expired":
      // The ended card says it has ended and offers Extend (endedOffer): not a third time here.
      return null;
    case "no-window":
      return "No refund: this license was not bought on this site.";
    default:
      return null;
  }
}
