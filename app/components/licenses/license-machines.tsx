import { Laptop } from "~/components/lucide-icons";
import { isRefundLocked } from "~/domain/license-status";
import { MACHINE_TEXTS } from "~/domain/machine-texts";
import type { LicenseView } from "~/domain/views";
import { useRootData } from "../use-root-data";
import { FloatingLeases } from "./floating-leases";
import { MachineList } from "./machine-list";
import { OfflineActivation } from "./offline-activation-form";

/**
 * The license card's machines section (decision 0041): how many of the license's seats are in use, the
 * machines, and the self-service deactivation limit (what is left, or when the next one is possible).
 */
export function LicenseMachines({ license, ended = false }: { license: LicenseView; ended?: boolean }) {
  const supportEmail = useRootData()?.publicConfig.supportEmail ?? "support";
  const view = license.machines;
  if (!view || isRefundLocked(license) || license.status === "revoked") return null;
  // An ended license activates nothing: no "open the tool" hint; machines still listed are shown.
  if (ended && view.machines.length === 0) return null;
  const limitLine =
    view.deactivationsLeft > 0
      ? `${MACHINE_TEXTS.rule(view.deactivationsPerWindow)} ${MACHINE_TEXTS.left(view.deactivationsLeft)}`
      : MACHINE_TEXTS.limitReached(view.deactivationsPerWindow, view.nextDeactivationAt ?? new Date(), supportEmail);
  return (
    <div className="flex flex-col gap-2" data-testid="license-machines">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h3 className="flex items-center gap-1.5 font-medium">
          <Laptop aria-hidden className="size-4 text-primary" />
          {MACHINE_TEXTS.sectionTitle}
        </h3>
        <span className="text-muted-foreground" data-testid="machines-used">
          {MACHINE_TEXTS.used(view.machines.length, view.limit)}
        </span>
      </div>
      <MachineList
        machines={view.machines}
        action="/licenses/machines/deactivate"
        licenseId={license.id}
        canDeactivate={view.deactivationsLeft > 0}
        note={MACHINE_TEXTS.left(view.deactivationsLeft)}
        empty={MACHINE_TEXTS.none}
      />
      <FloatingLeases floating={view.floating} />
      {view.machines.length > 0 || view.deactivationsLeft < view.deactivationsPerWindow ? (
        <p className="text-muted-foreground" data-testid="machines-limit">
          {limitLine}
        </p>
      ) : null}
      {/* A computer without a network is activated from here with the request its tool saved (decision 0071). */}
      {ended ? null : <OfflineActivation licenseId={license.id} />}
    </div>
  );
}
