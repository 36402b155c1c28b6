import { Monitor, RefreshCw } from "~/components/lucide-icons";
import { useRef, type ReactNode } from "react";
import { retentionOfferTexts } from "~/domain/retention-offer";
import { CancelReasonFields, RetentionOfferNote } from "./cancel-renewal-fields";
import { CANCEL_RENEWAL_CONFIRMATION, confirmationHref, isConfirmedIntent } from "~/domain/license-confirmation";
import { canCancelRenewal, canReenableRenewal } from "~/domain/license-status";
import { RENEWAL_TEXTS } from "~/domain/license-texts";
import { subscriptionChangesRefused } from "~/domain/past-due";
import type { LicenseView } from "~/domain/views";
import { NeedsScript } from "../needs-script";
import { OfflineDataDialog } from "./offline-data-dialog";
import type { LicenseAction } from "./use-license-action";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/alert-dialog";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/** How a destructive action looks: red on the outline, apart from Extend and the key. */
export const DESTRUCTIVE_OUTLINE =
  "border-destructive/50 text-[oklch(0.8_0.13_25)] hover:bg-destructive/10 hover:text-[oklch(0.85_0.1_25)]";

/**
 * Before the scripts run (or without JavaScript), a card's action is plain HTML: one that asks
 * first (app/domain/license-confirmation.ts) is a link to the page asking it, any other a form
 * post to the licenses action, which answers with the licenses page saying what was done
 * (`native` asks for that answer). Once hydrated, the card's fetcher and dialogs take over.
 */
export function NativeActionButton({
  intent,
  licenseId,
  children,
  destructive = false,
}: {
  intent: string;
  licenseId: string;
  children: ReactNode;
  destructive?: boolean;
}) {
  const className = destructive ? `self-start ${DESTRUCTIVE_OUTLINE}` : "self-start";
  if (isConfirmedIntent(intent)) {
    return (
      <Button asChild variant="outline" size="sm" className={className}>
        <a href={confirmationHref(intent, licenseId)}>{children}</a>
      </Button>
    );
  }
  return (
    <form method="post" action="/licenses" className="self-start">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="licenseId" value={licenseId} />
      <input type="hidden" name="native" value="1" />
      <Button type="submit" variant="outline" size="sm" className={destructive ? DESTRUCTIVE_OUTLINE : undefined}>
        {children}
      </Button>
    </form>
  );
}

/** Offline data: shown always; editable once, while both values are unset (docs/product.md, "Licenses"). */
export function OfflineDataSection({
  license,
  action,
  canEdit = true,
}: {
  license: LicenseView;
  action: LicenseAction;
  /** False for an ended license: offline data for a key that no longer works helps nobody. */
  canEdit?: boolean;
}) {
  const editable = canEdit && license.windows_username === null && license.computer_name === null;
  return (
    <div className="flex flex-col gap-2" data-testid="offline-data">
      <span className="flex items-center gap-1.5 font-medium">
        <Monitor aria-hidden className="size-4 text-primary" /> Offline data
      </span>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted-foreground">Windows username</dt>
        <dd className="break-all" data-testid="windows-username">
          {license.windows_username ?? "not set"}
        </dd>
        <dt className="text-muted-foreground">Computer name</dt>
        <dd className="break-all" data-testid="computer-name">
          {license.computer_name ?? "not set"}
        </dd>
      </dl>
      {editable ? (
        <span className="flex flex-wrap items-center gap-2">
          <OfflineDataDialog licenseId={license.id} action={action} />
          <NeedsScript />
        </span>
      ) : null}
    </div>
  );
}

/**
 * Cancel auto-renewal's dialog: the question, why (optional), and the license's one offer when it has
 * one (decision 0065): taking it keeps the renewal with the offer; "Cancel renewal" declines it.
 */
function CancelRenewalDialog({ license, action }: { license: LicenseView; action: LicenseAction }) {
  const { submit, pendingIntent, disabled } = action;
  const form = useRef<HTMLFormElement>(null);
  const offer = license.retention_offer ?? null;
  const send = (intent: string) => {
    const fields = Object.fromEntries(
      [...new FormData(form.current ?? undefined).entries()].map(([key, value]) => [key, String(value)]),
    );
    submit(intent, license.id, offer && intent === "take-offer" ? { ...fields, offer: offer.kind } : fields);
  };
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className={`self-start ${DESTRUCTIVE_OUTLINE}`}
          disabled={disabled}
        >
          {pendingIntent === "cancel-renewal" || pendingIntent === "take-offer" ? <Spinner /> : null}{" "}
          {RENEWAL_TEXTS.cancelButton}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-h-[90dvh] overflow-y-auto">
        <AlertDialogHeader>
          <AlertDialogTitle>{CANCEL_RENEWAL_CONFIRMATION.title}</AlertDialogTitle>
          <AlertDialogDescription>{CANCEL_RENEWAL_CONFIRMATION.body(license.end_date)}</AlertDialogDescription>
        </AlertDialogHeader>
        <form ref={form} onSubmit={(event) => event.preventDefault()} className="flex flex-col gap-4">
          <CancelReasonFields idPrefix={`cancel-${license.id}`} />
          {offer ? <RetentionOfferNote offer={offer} /> : null}
        </form>
        <AlertDialogFooter className="flex-wrap">
          <AlertDialogCancel>{CANCEL_RENEWAL_CONFIRMATION.keep}</AlertDialogCancel>
          {offer ? (
            <AlertDialogAction onClick={() => send("take-offer")}>
              {retentionOfferTexts(offer).accept}
            </AlertDialogAction>
          ) : null}
          <AlertDialogAction
            onClick={() => send("cancel-renewal")}
            // Red on the outline, as on the page without JavaScript: it ends the renewal (with or without an offer beside it).
            className={`${DESTRUCTIVE_OUTLINE} border bg-transparent`}
          >
            {CANCEL_RENEWAL_CONFIRMATION.confirm}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Auto-renewal: cancel at the period's end, or re-enable a cancelled renewal (docs/product.md, "Licenses"). */
export function SubscriptionSection({ license, action }: { license: LicenseView; action: LicenseAction }) {
  const { submit, pendingIntent, disabled, hydrated } = action;
  // A trial is cancelled with "Cancel trial" (trial-section.tsx), which says what it does.
  const cancellable = canCancelRenewal(license) && !license.is_trial;
  // The card's status line says whether and when it renews; this section holds the buttons.
  if (!cancellable && !canReenableRenewal(license)) return null;
  // The provider refuses every change to a past-due subscription: the payment-problem note says what to do instead.
  if (subscriptionChangesRefused(license)) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="license-renewal">
      {cancellable && !hydrated ? (
        <NativeActionButton intent="cancel-renewal" licenseId={license.id} destructive>
          {RENEWAL_TEXTS.cancelButton}
        </NativeActionButton>
      ) : null}
      {cancellable && hydrated ? <CancelRenewalDialog license={license} action={action} /> : null}
      {canReenableRenewal(license) && !hydrated ? (
        <NativeActionButton intent="reenable-renewal" licenseId={license.id}>
          <RefreshCw aria-hidden /> Re-enable auto-renewal
        </NativeActionButton>
      ) : null}
      {canReenableRenewal(license) && hydrated ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="self-start"
          disabled={disabled}
          onClick={() => submit("reenable-renewal", license.id)}
        >
          {pendingIntent === "reenable-renewal" ? <Spinner /> : <RefreshCw aria-hidden />} Re-enable auto-renewal
        </Button>
      ) : null}
    </div>
  );
}
