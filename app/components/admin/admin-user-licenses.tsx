import { useState } from "react";
import { useFetcher } from "react-router";
import { canResetOfflineData, type AdminLicenseView } from "~/domain/admin-user";
import type { ActionResult } from "~/domain/action-result";
import { formatDate } from "~/domain/format-date";
import { licenseTypeLabel } from "~/domain/plans";
import { AdminLicenseState, AdminRenewalAction } from "./admin-license-support";
import { AdminReasonDialog, useDialogToast } from "./admin-reason-dialog";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/alert-dialog";
import { Button } from "../ui/button";
import { useActionToast } from "../use-action-toast";

/**
 * The license actions' one fetcher, owned by the list: a dialog's button disappears with its
 * action's success (a revoked license cannot be revoked again), while the list stays to show the answer.
 */
type LicenseFetcher = ReturnType<typeof useFetcher<ActionResult>>;

/**
 * Revoke, with a required reason and a destructive-styled confirmation (the shared reason dialog).
 * Stays mounted after the revocation removed the button, to show the answer's toast.
 */
function RevokeAction({ license }: { license: AdminLicenseView }) {
  const id = `revoke-${license.id}`;
  useDialogToast(id);
  if (license.status !== "active") return null;
  return (
    <AdminReasonDialog
      id={id}
      trigger="Revoke"
      title={`Revoke license ${license.short_id}?`}
      description={`The ${licenseTypeLabel(license.license_type)} license of ${license.email} stops working at once and its subscription stops renewing. This cannot be undone.`}
      intent="revoke"
      submit="Revoke license"
      cancel="Keep it"
      hidden={{ licenseId: license.id }}
      destructive
      toast={false}
    />
  );
}

/** Reset offline data (audited), after a confirmation naming what is cleared. */
function ResetOfflineDialog({ license, fetcher }: { license: AdminLicenseView; fetcher: LicenseFetcher }) {
  const [open, setOpen] = useState(false);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const [closedFor, setClosedFor] = useState<unknown>(null);
  const shown = open && !(result && closedFor !== result);
  return (
    <AlertDialog
      open={shown}
      onOpenChange={(next) => {
        setOpen(next);
        setClosedFor(result ?? null);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          Reset offline data
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <fetcher.Form method="post" className="flex flex-col gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>Reset the offline data of {license.short_id}?</AlertDialogTitle>
            <AlertDialogDescription>
              The Windows user name “{license.windows_username ?? "—"}” and computer name “
              {license.computer_name ?? "—"}” are cleared and the key is regenerated; the customer can then enter them
              again, once.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <input type="hidden" name="intent" value="reset-offline" />
          <input type="hidden" name="licenseId" value={license.id} />
          <AlertDialogFooter>
            <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
            <Button type="submit" disabled={fetcher.state !== "idle"}>
              Reset offline data
            </Button>
          </AlertDialogFooter>
        </fetcher.Form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-all">{children}</dd>
    </div>
  );
}

export function AdminUserLicenses({ licenses, now }: { licenses: AdminLicenseView[]; now: Date }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : undefined);
  if (licenses.length === 0) return <p className="text-muted-foreground">This user has no licenses.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Licenses">
      {licenses.map((license) => {
        return (
          <li
            key={license.id}
            id={`license-${license.id}`}
            data-testid="admin-license"
            data-license-status={license.status}
            className="flex scroll-mt-24 flex-col gap-3 rounded-lg border p-4 text-sm target:border-primary"
          >
            <span className="font-medium">
              {licenseTypeLabel(license.license_type)} license{" "}
              <span className="font-mono text-muted-foreground">{license.short_id}</span>
            </span>
            <AdminLicenseState license={license} now={now} />
            <dl className="grid gap-2 sm:grid-cols-2">
              <Fact label="License e-mail">{license.email}</Fact>
              <Fact label="Runs">
                {formatDate(license.start_date)} – {formatDate(license.end_date)}
              </Fact>
              <Fact label="Offline data">
                {license.windows_username || license.computer_name
                  ? `${license.windows_username ?? "—"} on ${license.computer_name ?? "—"}`
                  : "not set"}
              </Fact>
            </dl>
            <code className="break-all rounded-md border bg-background/60 px-2 py-1 font-mono text-xs">
              {license.license_key}
            </code>
            <div className="flex flex-wrap gap-2">
              <AdminRenewalAction license={license} />
              <RevokeAction license={license} />
              {canResetOfflineData(license) ? <ResetOfflineDialog license={license} fetcher={fetcher} /> : null}
              {license.status === "active" && !license.refunded ? (
                <fetcher.Form method="post">
                  <input type="hidden" name="intent" value="resend-license" />
                  <input type="hidden" name="licenseId" value={license.id} />
                  <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
                    Resend license e-mail
                  </Button>
                </fetcher.Form>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
