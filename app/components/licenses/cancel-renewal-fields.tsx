import { Gift } from "~/components/lucide-icons";
import {
  CANCEL_NOTE_MAX,
  CANCEL_REASON_LABELS,
  CANCEL_REASONS,
  retentionOfferTexts,
  type RetentionOffer,
} from "~/domain/retention-offer";
import { Label } from "../ui/label";
import { NativeSelect } from "../ui/native-select";

/**
 * The cancel step's questions (decision 0065): why, from a short list, and free text, both optional.
 * The same fields in the card's dialog and on the confirmation page without JavaScript.
 */
export function CancelReasonFields({ idPrefix }: { idPrefix: string }) {
  return (
    <div className="flex flex-col gap-3 text-left">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${idPrefix}-reason`}>
          Why are you cancelling? <span className="text-xs font-normal text-muted-foreground">optional</span>
        </Label>
        <NativeSelect id={`${idPrefix}-reason`} name="reason" defaultValue="">
          <option value="">Choose a reason</option>
          {CANCEL_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {CANCEL_REASON_LABELS[reason]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${idPrefix}-note`}>
          Anything else we should know? <span className="text-xs font-normal text-muted-foreground">optional</span>
        </Label>
        <textarea
          id={`${idPrefix}-note`}
          name="note"
          maxLength={CANCEL_NOTE_MAX}
          rows={3}
          className="w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        />
      </div>
    </div>
  );
}

/** The offer, once per license: what it is and what the next charge then is. */
export function RetentionOfferNote({ offer }: { offer: RetentionOffer }) {
  const texts = retentionOfferTexts(offer);
  return (
    <div
      className="flex gap-3 rounded-lg border border-primary/40 bg-primary/5 p-3 text-left"
      data-testid="retention-offer"
    >
      <Gift aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium">{texts.title}</p>
        <p className="text-sm text-muted-foreground">{texts.body}</p>
      </div>
    </div>
  );
}
