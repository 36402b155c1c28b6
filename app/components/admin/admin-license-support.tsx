import type { AdminLicenseView } from "~/domain/admin-user";
import { canCancelRenewal, canReenableRenewal } from "~/domain/license-status";
import { supportView } from "~/domain/license-support";
import { formatDate } from "~/domain/format-date";
import { AdminReasonDialog, useDialogToast } from "./admin-reason-dialog";
import { Badge } from "../ui/badge";

/**
 * A license as its owner sees it (the customer's exact badge and status line, from the one
 * state function) and the support details beside it (issue 24): subscription, renewal, grace
 * end, payment method, refund window, the desktop tool's code.
 */
export function AdminLicenseState({ license, now }: { license: AdminLicenseView; now: Date }) {
  const { state, details } = supportView(license, now);
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
    </div>
  );
}

/** A search result's matched license: the owner's badge and line, nothing more (issue 24). */
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
