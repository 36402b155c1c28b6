import { useFetcher } from "react-router";
import type { AdminUserView } from "~/domain/admin-user";
import type { ActionResult } from "~/domain/action-result";
import { AdminReasonDialog, useDialogToast } from "./admin-reason-dialog";
import { Button } from "../ui/button";
import { useActionToast } from "../use-action-toast";

/** Resend the confirmation link (no reason needed: it changes nothing but sends a link). */
function ResendConfirmation() {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : undefined);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="support-resend-confirmation" />
      <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
        Resend confirmation e-mail
      </Button>
    </fetcher.Form>
  );
}

/**
 * The account's support actions (decision 0038): the address (change it), its confirmation (resend),
 * two-factor (see it, reset it for a locked-out customer).
 */
export function AdminSupportAccount({ user }: { user: AdminUserView }) {
  const isAdmin = user.role === "admin";
  // The reset's button goes with two-factor: its answer is shown from here.
  useDialogToast("reset-two-factor");
  return (
    <div className="flex flex-col gap-3 rounded-lg border p-4 text-sm" data-testid="support-account">
      <dl className="grid gap-3 sm:grid-cols-3">
        <div className="min-w-0">
          <dt className="text-xs text-muted-foreground">Account e-mail</dt>
          <dd className="break-all" data-testid="account-email">
            {user.email}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">E-mail confirmed</dt>
          <dd data-testid="email-confirmed">{user.email_verified ? "Yes" : "No, never confirmed"}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Two-factor authentication</dt>
          <dd data-testid="two-factor-state">{user.two_factor_enabled ? "On" : "Off"}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        <AdminReasonDialog
          id="change-email"
          trigger="Change e-mail address"
          title="Change the customer's e-mail address?"
          description={
            user.email_verified
              ? "A confirmation link goes to the new address; the account keeps its current address until it is followed. The current address is told. Licenses keep the address they were issued to; new licenses take the new one."
              : "The account was never confirmed: it takes the new address at once and a confirmation link goes there. The current address is told. Licenses keep the address they were issued to; new licenses take the new one."
          }
          intent="support-change-email"
          submit="Change e-mail address"
          emailField={{ label: "New e-mail address", defaultValue: "" }}
        />
        {user.email_verified ? null : <ResendConfirmation />}
        {user.two_factor_enabled && !isAdmin ? (
          <AdminReasonDialog
            id="reset-two-factor"
            trigger="Reset two-factor"
            title="Reset two-factor authentication?"
            description="Only after checking the customer's identity (say how in the reason). Two-factor is turned off and the recovery codes stop working: the customer signs in with the password alone and can turn it on again. The customer is e-mailed."
            intent="support-reset-two-factor"
            submit="Reset two-factor"
            destructive
            toast={false}
          />
        ) : null}
      </div>
    </div>
  );
}
