import { ADMIN_TOASTS, type ReleaseForm } from "~/domain/admin";
import { done, refused, type ActionOutcome } from "../action-outcome.server";
import type { AuditActor } from "../audit/audit.server";
import { digestInstaller } from "../releases/installer-digest.server";
import type { ReleaseFlag, VersionRefused } from "../releases/release-writes.server";
import { saveRelease, setReleaseFlag } from "./manage-releases.server";

/**
 * The admin releases tab's actions (decision 0039): save (draft or publish), the flags, and the installer
 * digest. The route reads the form (app/http/admin-forms.server.ts) and answers the outcome.
 */

export const RELEASE_INTENTS = new Set(["save-release", "release-flag", "compute-installer"]);

/** A release action as the route read it from the form (a saved release is checked against its schema already). */
export type ReleaseRequest =
  | { intent: "save-release"; id: string | null; release: ReleaseForm }
  | { intent: "release-flag"; id: string; flag: string }
  | { intent: "compute-installer"; downloadUrl: string };

/** What a release action answers beside its toast: the installer's digest, or whether an older version asks to confirm. */
type ReleaseExtra = { digest?: Awaited<ReturnType<typeof digestInstaller>>; older?: boolean };

const FLAGS: ReleaseFlag[] = ["publish", "unpublish", "yank", "unyank"];

/** A refused version: 400 or 409 with the version field named; an older one asks for confirmation. */
export function releaseRefused(error: VersionRefused): ActionOutcome<ReleaseExtra> {
  return refused(error.status, error.message, { version: [error.message] }, { older: error.kind === "older" });
}

export async function releaseAction(admin: AuditActor, request: ReleaseRequest): Promise<ActionOutcome<ReleaseExtra>> {
  switch (request.intent) {
    case "save-release": {
      const { created } = await saveRelease({ admin, id: request.id, release: request.release });
      const { version, publish } = request.release;
      if (publish) return done(ADMIN_TOASTS.releasePublished(version));
      return done((created ? ADMIN_TOASTS.releaseCreated : ADMIN_TOASTS.releaseUpdated)(version));
    }
    case "release-flag": {
      const flag = request.flag as ReleaseFlag;
      if (!FLAGS.includes(flag)) return refused(400, "Unknown change.");
      const { version } = await setReleaseFlag({ admin, id: request.id, flag });
      return done(ADMIN_TOASTS.releaseFlag(flag, version));
    }
    case "compute-installer": {
      const given = request.downloadUrl.trim();
      const digest = await digestInstaller(given === "" ? null : given);
      return done(ADMIN_TOASTS.installerComputed(digest.url), { digest });
    }
  }
}
