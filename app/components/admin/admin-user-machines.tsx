import { licenseTypeLabel } from "~/domain/plans";
import { MACHINE_TEXTS, type AdminLicenseMachines } from "~/domain/machine-texts";
import { FloatingLeases } from "../licenses/floating-leases";
import { MachineList } from "../licenses/machine-list";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

/**
 * The admin's user page: every license's machines with "Deactivate" (always allowed, audited, not
 * counted toward the customer's self-service limit).
 */
export function AdminUserMachines({ userId, licenses }: { userId: string; licenses: AdminLicenseMachines[] }) {
  return (
    <Card data-testid="admin-user-machines">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{MACHINE_TEXTS.sectionTitle}</h2>
        </CardTitle>
        <CardDescription>
          Machines each license is activated on. Deactivating one here is always allowed, is recorded in the audit log
          and does not use up the customer's own deactivations.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {licenses.length === 0 ? <p className="text-muted-foreground">This user has no licenses.</p> : null}
        {licenses.map((license) => (
          <div key={license.licenseId} className="flex flex-col gap-2" data-testid="admin-license-machines">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <h3 className="font-medium">
                {licenseTypeLabel(license.licenseType)} <span className="font-mono">{license.shortId}</span>
              </h3>
              <span className="text-muted-foreground">
                {MACHINE_TEXTS.used(license.machines.length, license.limit)} ·{" "}
                {MACHINE_TEXTS.left(license.deactivationsLeft)}
              </span>
            </div>
            <MachineList
              machines={license.machines}
              action={`/admin/users/${userId}/machines`}
              licenseId={license.licenseId}
              empty="No machine is activated."
            />
            <FloatingLeases floating={license.floating} listed />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
