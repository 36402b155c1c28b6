import { MACHINE_TEXTS } from "~/domain/machine-texts";
import type { ToastInput } from "~/domain/action-result";
import { isUuid } from "../action-error.server";
import type { AuditActor } from "../audit/audit.server";
import { getEnv } from "../env.server";
import { deactivateMachine } from "./deactivate-machine.server";
import { ownsLicense } from "./list-machines.server";

/** What a deactivation from a page answers: the status and the toast (the same for the script and the no-script form). */
export interface DeactivationReply {
  status: number;
  toast: ToastInput;
}

const refused = (status: number, description: string): DeactivationReply => ({
  status,
  toast: { title: "Error", description, variant: "destructive" },
});

/**
 * "Deactivate" on the licenses page (source web) or on the admin's user page (source admin, with
 * its actor: audited, never limited). The owner's license only (404 otherwise); a machine that is no
 * longer active is a 409; past the self-service limit a 429 saying when the next one is possible and
 * that support can help.
 */
export async function deactivateFromPage({
  userId,
  licenseId,
  machineId,
  admin,
}: {
  userId: string;
  licenseId: string;
  machineId: string;
  admin?: AuditActor;
}): Promise<DeactivationReply> {
  if (!isUuid(licenseId) || !isUuid(machineId) || !(await ownsLicense(userId, licenseId)))
    return refused(404, "License not found.");
  const result = await deactivateMachine({
    licenseId,
    selector: { machineId },
    source: admin ? "admin" : "web",
    actor: admin,
  });
  if (result.outcome === "not-active") return refused(409, MACHINE_TEXTS.notActive);
  if (result.outcome === "limit")
    return refused(429, MACHINE_TEXTS.limitReached(result.perWindow, result.nextAt, getEnv().SUPPORT_EMAIL));
  const name = result.machine.name;
  return {
    status: 200,
    toast: {
      title: "Machine deactivated",
      description: admin ? MACHINE_TEXTS.adminDeactivated(name) : MACHINE_TEXTS.deactivated(name),
      variant: "success",
    },
  };
}
