import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import type { AdminLicenseView } from "~/domain/admin-user";
import { canCancelRenewal, canReenableRenewal } from "~/domain/license-status";
import { supportView } from "~/domain/license-support";
import { subscriptionChangesRefused } from "~/domain/past-due";
import { formatDate } from "~/domain/format-date";
import { AdminReasonDialog, useDialogToast } from "./admin-reason-dialog";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { useActionToast } from "../use-action-toast";

/**
 * A license as its owner sees it (the customer's exact badge and status line, from the one
 * state function) and the support details beside it (decision 0030): subscription, renewal, grace
 * end, payment method, refund window, the desktop tool's code.
 */
export function AdminLicenseState({ license, now }: { license: AdminLicenseView; now: Date }) {
  const { state, details, paymentProblem } = supportView(license, now);
  return (
    <div className="flex flex-col gap-2" data-testid="admin-license-state" data-state={state.state}>
      <p className="flex flex-wrap items-center gap-2">
        <Badge variant={state.badge.tone} data-testid="license-badge">
          {state.badge.label}
        </Badge>
        <span data-testid="license-line">{state.line}</span>
      </p>
      <dl className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-2 lg:grid-cols-3" aria-label="Support details">
        {details.map((detail) => (
          <div key={detail.label} className="min-w-0">
            <dt className="text-muted-foreground">{detail.label}</dt>
            <dd className="break-all" data-testid={`support-${detail.label.toLowerCase().replace(/\s+/g, "-")}`}>
              {detail.value}
            </dd>
          </div>
        ))}
      </dl>
      {paymentProblem ? (
        <div
          role="note"
          aria-label="Failed payment"
          data-testid="admin-payment-problem"
          className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-xs"
        >
          {paymentProblem.map((line) => (
            <p key={line}>{line}</p>
          ))}
          {state.state === "payment-failed" ? <SendPaymentLink licenseId={license.id} /> : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * E-mails the customer the failed-payment e-mail again, whose "Update payment method" opens the
 * card that takes a new card (decision 0060): what support does when a customer cannot find it.
 */
function SendPaymentLink({ licenseId }: { licenseId: string }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : null);
  return (
    <fetcher.Form method="post" className="mt-2">
      <input type="hidden" name="intent" value="send-payment-link" />
      <input type="hidden" name="licenseId" value={licenseId} />
      <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
        E-mail the update-payment link
      </Button>
    </fetcher.Form>
  );
}

/** A search result's matched license: the owner's badge and line, nothing more (decision 0030). */
export function MatchedLicenseState({ license }: { license: AdminLicenseView }) {
  const { state } = supportView(license, new Date());
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2 text-xs" data-testid="admin-result-license">
      <span className="font-mono">{license.short_id}</span>
      <Badge variant={state.badge.tone}>{state.badge.label}</Badge>
      <span>{state.line}</span>
    </p>
  );
}

/** Cancel or re-enable the automatic renewal on the customer's behalf (through the provider). */
export function AdminRenewalAction({ license }: { license: AdminLicenseView }) {
  // Cancelling swaps the button for re-enabling (and back): the answers are shown from here.
  useDialogToast(`cancel-${license.id}`);
  useDialogToast(`reenable-${license.id}`);
  if (license.status !== "active" || license.refunded || !license.paddle_subscription_id) return null;
  // The provider refuses every change to a past-due subscription (the server says so): no button that cannot work.
  if (subscriptionChangesRefused(license)) return null;
  const facts = { ...license, has_subscription: true };
  if (canCancelRenewal(facts)) {
    return (
      <AdminReasonDialog
        key="cancel"
        id={`cancel-${license.id}`}
        trigger="Cancel renewal"
        title={`Cancel the renewal of ${license.short_id}?`}
        description={`The provider stops the subscription at the end of the period: the license stays active until ${formatDate(license.end_date)} and is not charged again. The customer is e-mailed.`}
        intent="support-cancel-renewal"
        submit="Cancel renewal"
        cancel="Keep renewing"
        hidden={{ licenseId: license.id }}
        destructive
        toast={false}
      />
    );
  }
  if (canReenableRenewal(facts)) {
    return (
      <AdminReasonDialog
        key="reenable"
        id={`reenable-${license.id}`}
        trigger="Re-enable renewal"
        title={`Re-enable the renewal of ${license.short_id}?`}
        description={`The provider's scheduled cancellation is removed: the license renews on ${formatDate(license.end_date)} and the customer's card is charged then. The customer is e-mailed.`}
        intent="support-reenable-renewal"
        submit="Re-enable renewal"
        hidden={{ licenseId: license.id }}
        toast={false}
      />
    );
  }
  return null;
}
