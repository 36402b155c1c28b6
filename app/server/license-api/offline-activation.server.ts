import { and, eq, getTableColumns } from "drizzle-orm";
import {
  OFFLINE_ACTIVATION_TEXTS,
  parseActivationRequest,
  type ActivationRequest,
  type OfflineActivationRefusalCode,
} from "~/domain/activation-request";
import { isUuid } from "../action-error.server";
import { getDb } from "../db/db.server";
import { licenses, machines, offline_activations, teams, type License } from "../db/schema";
import { activateMachineIn } from "../machines/activate-machine.server";
import { lockLicense } from "../machines/machine-records.server";
import { findLicenseByKey } from "./find-license.server";
import { buildLicenseFile, type LicenseFile } from "./license-file.server";
import { signingKeys } from "./signing.server";
import { licenseCode } from "./validate-license.server";

/** A refused request: its status, its code and the sentence the page shows. Nothing was written. */
export interface OfflineActivationRefusal {
  ok: false;
  status: number;
  code: OfflineActivationRefusalCode;
  message: string;
  field?: string;
}

export type OfflineActivationOutcome = { ok: true; activationId: string } | OfflineActivationRefusal;

const refuse = (status: number, code: OfflineActivationRefusalCode, message: string): OfflineActivationRefusal => ({
  ok: false,
  status,
  code,
  message,
});

/** Thrown inside the transaction to roll it back with a refusal (nothing stored). */
class Refused extends Error {
  constructor(readonly refusal: OfflineActivationRefusal) {
    super(refusal.message);
  }
}

/** Whom the request concerns: one of the user's licenses, the one whose card it was uploaded on, valid now. */
function checkLicense(license: License | null, userId: string, licenseId: string): OfflineActivationRefusal | null {
  if (!license || license.user_id !== userId)
    return refuse(404, "license_not_found", OFFLINE_ACTIVATION_TEXTS.notYours);
  if (license.id !== licenseId)
    return refuse(409, "other_license", OFFLINE_ACTIVATION_TEXTS.otherLicense(license.short_id));
  const code = licenseCode(license);
  if (code === "VALID") return null;
  const notValid = OFFLINE_ACTIVATION_TEXTS.notValid;
  if (code in notValid) return refuse(409, code as keyof typeof notValid, notValid[code as keyof typeof notValid]);
  return refuse(404, "license_not_found", OFFLINE_ACTIVATION_TEXTS.notYours);
}

/** In one transaction under the license's row lock: the nonce not used before, a seat, the request recorded. */
async function activateFromRequest(license: License, userId: string, request: ActivationRequest, now: Date) {
  return getDb().transaction(async (tx) => {
    if (!(await lockLicense(tx, license.id)))
      throw new Refused(refuse(404, "license_not_found", OFFLINE_ACTIVATION_TEXTS.notYours));
    const [used] = await tx
      .select({ id: offline_activations.id })
      .from(offline_activations)
      .where(and(eq(offline_activations.license_id, license.id), eq(offline_activations.nonce, request.nonce)));
    if (used) throw new Refused(refuse(409, "activation_request_used", OFFLINE_ACTIVATION_TEXTS.used));
    const { fingerprint, name, platform, app_version } = request;
    const result = await activateMachineIn(tx, license, { fingerprint, name, platform, app_version }, now);
    if (result.outcome === "gone")
      throw new Refused(refuse(404, "license_not_found", OFFLINE_ACTIVATION_TEXTS.notYours));
    if (result.outcome === "full")
      throw new Refused(refuse(409, "MACHINE_LIMIT", OFFLINE_ACTIVATION_TEXTS.full(result.limit)));
    const [row] = await tx
      .insert(offline_activations)
      .values({
        license_id: license.id,
        machine_id: result.machine.id,
        user_id: userId,
        nonce: request.nonce,
        requested_at: new Date(request.created_at),
        created_at: now,
      })
      .returning({ id: offline_activations.id });
    return row!.id;
  });
}

/**
 * "Activate a computer without a network" on a license card (decision 0071): reads the uploaded or
 * pasted activation request, checks that it names the user's own license (owner or seat holder) and
 * the card's, that the license is valid and the request was never used, then activates the machine
 * as the desktop API does (the seat limit, the same fingerprint again takes no second seat, the
 * owner's e-mail) and records the request, all in one transaction. A refusal writes nothing.
 */
export async function activateOffline(
  { userId, licenseId, text }: { userId: string; licenseId: string; text: string },
  now = new Date(),
): Promise<OfflineActivationOutcome> {
  const parsed = parseActivationRequest(text);
  if (!parsed.ok) {
    const status = parsed.code === "activation_request_too_large" ? 413 : 400;
    return { ...refuse(status, parsed.code, parsed.message), ...(parsed.field ? { field: parsed.field } : {}) };
  }
  const license = await findLicenseByKey(parsed.request.license_key);
  const refused = checkLicense(license, userId, licenseId);
  if (refused) return refused;
  try {
    return { ok: true, activationId: await activateFromRequest(license!, userId, parsed.request, now) };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/** What the confirmation page shows about an offline activation. */
export interface OfflineActivationView {
  id: string;
  shortId: string;
  machineName: string;
  activatedAt: string;
  /** The machine is still active and the license valid: the file can be downloaded. */
  fileAvailable: boolean;
  /** Why not, when it cannot. */
  unavailable: string | null;
}

/** The user's offline activation by id (their own license's only), with its license and machine; null otherwise. */
async function ownActivation(userId: string, activationId: string) {
  const [row] = await getDb()
    .select({
      activation: offline_activations,
      license: { ...getTableColumns(licenses), team_name: teams.name },
      machine: machines,
    })
    .from(offline_activations)
    .innerJoin(licenses, eq(licenses.id, offline_activations.license_id))
    .innerJoin(machines, eq(machines.id, offline_activations.machine_id))
    .leftJoin(teams, eq(teams.id, licenses.team_id))
    .where(
      and(
        eq(offline_activations.id, activationId),
        eq(offline_activations.user_id, userId),
        eq(licenses.user_id, userId),
      ),
    );
  return row ?? null;
}

/**
 * The confirmation of an offline activation and its activation file: the license file bound to the
 * machine (fingerprint hash and name) carrying the request's nonce, signed like every license file,
 * issued anew at each download while the machine is active and the license valid.
 */
export async function offlineActivation(
  userId: string,
  activationId: string,
  now = new Date(),
): Promise<{ view: OfflineActivationView; file: LicenseFile | null } | null> {
  if (!isUuid(activationId)) return null;
  const row = await ownActivation(userId, activationId);
  if (!row) return null;
  const { activation, license, machine } = row;
  const valid = licenseCode(license, {}, now) === "VALID";
  const active = machine.deactivated_at === null;
  const file =
    valid && active
      ? buildLicenseFile(license, now, signingKeys(), machine, { request_nonce: activation.nonce })
      : null;
  return {
    view: {
      id: activation.id,
      shortId: license.short_id,
      machineName: machine.name,
      activatedAt: activation.created_at.toISOString(),
      fileAvailable: file !== null,
      unavailable: file
        ? null
        : !active
          ? OFFLINE_ACTIVATION_TEXTS.noLongerActive
          : OFFLINE_ACTIVATION_TEXTS.notValidNow,
    },
    file,
  };
}
