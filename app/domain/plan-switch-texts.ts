import { formatMoney } from "./billing";
import { formatDate } from "./format-date";
import { licenseTypeLabel } from "./plans";
import type { PlanSwitchPreview } from "./plan-switch";

/**
 * What the card's "Change plan" and its preview say (decision 0061), in one place for the dialog,
 * the page without JavaScript, the action's toasts and their tests.
 */
export const PLAN_SWITCH_TEXTS = {
  button: "Change plan",
  buttonLabel: (shortId: string) => `Change plan of license ${shortId}`,
  title: "Change plan",
  choose: "Choose the plan to switch to. Nothing changes until you confirm the preview.",
  previewButton: (plan: string) => `Preview ${plan}`,
  confirm: (plan: string) => `Switch to ${plan}`,
  keep: "Keep my plan",
  effectNow: "From now: the new period starts today.",
  effectRenewal: "From the next renewal: nothing changes until then.",
  previewFailed: "The payment provider could not preview the change. Please try again.",
  changeFailed: "The payment provider could not change the plan. Please try again.",
  pending: (plan: string, date: string) => `Switching to ${plan} at the next renewal on ${formatDate(date)}.`,
} as const;

/** The preview's lines, as the dialog and the page list them. */
export function planSwitchPreviewLines(preview: PlanSwitchPreview): { label: string; value: string; id: string }[] {
  const money = (cents: number) => formatMoney(cents, preview.currency);
  const plan = licenseTypeLabel(preview.becomes.plan);
  return [
    {
      id: "now",
      label: "Charged now",
      value:
        preview.creditCents > 0
          ? `${money(preview.chargedNowCents)} (${money(preview.creditCents)} unused time credited)`
          : money(preview.chargedNowCents),
    },
    {
      id: "next",
      label: "Next charge",
      value: `${money(preview.nextChargeCents)} on ${formatDate(preview.nextChargeAt)}`,
    },
    // A team's change (decision 0074) names what each of its seats becomes.
    preview.becomes.seats === undefined
      ? {
          id: "becomes",
          label: "The license becomes",
          value: `${plan}, until ${formatDate(preview.becomes.endDate)}, ${preview.becomes.machines} machines`,
        }
      : {
          id: "becomes",
          label: `Each of the ${preview.becomes.seats} seats becomes`,
          value: `${plan}, until ${formatDate(preview.becomes.endDate)}, ${preview.becomes.machines} machines`,
        },
  ];
}

/** The toast after a confirmed switch. */
export function planSwitchDoneToast(preview: PlanSwitchPreview) {
  const plan = licenseTypeLabel(preview.to);
  return preview.effect === "now"
    ? {
        title: "Plan changed",
        description: `Your license is now ${plan}: ${formatMoney(preview.chargedNowCents, preview.currency)} charged, next charge on ${formatDate(preview.nextChargeAt)}.`,
      }
    : {
        title: "Plan change scheduled",
        description: `Your license switches to ${plan} at the next renewal on ${formatDate(preview.nextChargeAt)}.`,
      };
}
