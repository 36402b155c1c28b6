import { and, eq, isNull, lt } from "drizzle-orm";
import { inactiveBefore } from "~/domain/machines";
import { machineActivatedEmail } from "~/emails/machine-emails.server";
import { getDb } from "../db/db.server";
import { licenses, machines } from "../db/schema";
import { getEnv } from "../env.server";
import { queueNextHour, scheduleHourly } from "../jobs/hourly.server";
import { JOB_PAYLOADS } from "../jobs/job-payloads.server";
import type { JobDefinition } from "../jobs/jobs.server";
import { getLogger } from "../logger.server";
import { getMailer } from "../mail/mailer.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";
import { licenseMachineLimit } from "./activate-machine.server";
import { deactivateMachine } from "./deactivate-machine.server";
import { activeMachines } from "./machine-records.server";

export const MACHINE_INACTIVITY_JOB = "machine-inactivity";

/**
 * Releases the machines not seen for MACHINE_INACTIVE_AFTER_DAYS (unset: none), one transaction each,
 * recorded as deactivated by "inactivity" (not counted toward the owner's limit).
 */
export async function releaseInactiveMachines(now = new Date()): Promise<{ released: number }> {
  const before = inactiveBefore(now, getEnv().MACHINE_INACTIVE_AFTER_DAYS);
  if (!before) return { released: 0 };
  const silent = await getDb()
    .select({ id: machines.id, license_id: machines.license_id })
    .from(machines)
    .where(and(isNull(machines.deactivated_at), lt(machines.last_seen_at, before)));
  let released = 0;
  for (const machine of silent) {
    const result = await deactivateMachine(
      { licenseId: machine.license_id, selector: { machineId: machine.id }, source: "inactivity" },
      now,
    );
    if (result.outcome === "deactivated") released++;
  }
  return { released };
}

/** Queues this hour's and the next hour's run (at start, idempotently). */
export const scheduleMachineInactivity = (now?: Date) => scheduleHourly(MACHINE_INACTIVITY_JOB, now);

export const machineInactivityJob: JobDefinition<{ hour: string }> = {
  payload: JOB_PAYLOADS["machine-inactivity"],
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 600,
  handle: async ({ hour }) => {
    await queueNextHour(MACHINE_INACTIVITY_JOB, hour);
    const result = await releaseInactiveMachines();
    if (result.released > 0) getLogger().info(result, "released inactive machines");
    return result;
  },
};

/** Sends the owner the e-mail about a newly activated machine (queued in the activation's transaction). */
export async function sendMachineActivatedMail({ machineId }: { machineId: string }) {
  const [row] = await getDb()
    .select({ machine: machines, license: licenses })
    .from(machines)
    .innerJoin(licenses, eq(licenses.id, machines.license_id))
    .where(eq(machines.id, machineId));
  if (!row) return { skipped: "the machine no longer exists" };
  const to = await recipientOf(row.license.user_id);
  if (!to) return { skipped: "the owner no longer exists" };
  const mail = await machineActivatedEmail(to.email, {
    brand: mailBrand(),
    name: to.name,
    shortId: row.license.short_id,
    machineName: row.machine.name,
    platform: row.machine.platform,
    appVersion: row.machine.app_version,
    activatedAt: row.machine.activated_at,
    active: (await activeMachines(getDb(), row.license.id)).length,
    limit: licenseMachineLimit(row.license),
  });
  await getMailer().send(mail);
  return { sent: "machine-activated", license: row.license.short_id };
}

export const machineActivatedMailJob: JobDefinition<{ machineId: string }> = {
  payload: JOB_PAYLOADS["machine-activated-mail"],
  retryLimit: 10,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
  handle: sendMachineActivatedMail,
};
