import { data } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { ADMIN_TOASTS, releaseFormSchema, releaseFormValues } from "~/domain/admin";
import { parseValues } from "~/lib/form";
import { failure } from "../action-reply.server";
import type { AuditActor } from "../audit/audit.server";
import { digestInstaller } from "../releases/installer-digest.server";
import type { ReleaseFlag, VersionRefused } from "../releases/release-writes.server";
import { saveRelease, setReleaseFlag } from "./manage-releases.server";

/** The admin releases tab's actions (issue 25): save (draft or publish), the flags, and the installer digest. */

export const RELEASE_INTENTS = new Set(["save-release", "release-flag", "compute-installer"]);

const FLAGS: ReleaseFlag[] = ["publish", "unpublish", "yank", "unyank"];

const ok = (toast: { title: string; description: string }, extra: object = {}) =>
  data<ActionResult>({ ok: true, toast: { ...toast, variant: "success" }, ...extra });

/** A refused version: 400 or 409 with the version field named; an older one asks for confirmation. */
export function releaseRefused(error: VersionRefused) {
  return failure(
    error.status,
    { description: error.message, fieldErrors: { version: [error.message] }, formError: false },
    { older: error.kind === "older" },
  );
}

export async function releaseAction(admin: AuditActor, intent: string, form: FormData) {
  switch (intent) {
    case "save-release": {
      const parsed = parseValues(releaseFormSchema, releaseFormValues(form));
      if (!parsed.success) {
        const first = Object.values(parsed.fieldErrors)[0]![0]!;
        return failure(400, { description: first, fieldErrors: parsed.fieldErrors, formError: false });
      }
      const id = String(form.get("id") ?? "") || null;
      const { created } = await saveRelease({ admin, id, release: parsed.data });
      const { version, publish } = parsed.data;
      if (publish) return ok(ADMIN_TOASTS.releasePublished(version));
      return ok((created ? ADMIN_TOASTS.releaseCreated : ADMIN_TOASTS.releaseUpdated)(version));
    }
    case "release-flag": {
      const flag = String(form.get("flag") ?? "") as ReleaseFlag;
      if (!FLAGS.includes(flag)) return failure(400, { description: "Unknown change.", formError: false });
      const { version } = await setReleaseFlag({ admin, id: String(form.get("id") ?? ""), flag });
      return ok(ADMIN_TOASTS.releaseFlag(flag, version));
    }
    default: {
      const given = String(form.get("download_url") ?? "").trim();
      const digest = await digestInstaller(given === "" ? null : given);
      return ok(ADMIN_TOASTS.installerComputed(digest.url), { digest });
    }
  }
}
