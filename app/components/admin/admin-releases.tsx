import { Pencil, Plus, Trash2 } from "~/components/lucide-icons";
import { useState } from "react";
import { useFetcher } from "react-router";
import { DELETE_RELEASE_CONFIRMATION } from "~/domain/admin";
import { formatReleaseDate } from "~/domain/release-format";
import type { ActionResult } from "~/domain/action-result";
import type { ReleaseView } from "~/domain/views";
import { FormMessage } from "../form-field";
import {
  AlertDialog,
  AlertDialogAction,
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
import { ReleaseRolloutLine } from "./release-rollout-fields";
import { ReleaseFormDialog } from "./release-form-dialog";
import { ReleaseBadges, ReleaseFlagButtons } from "./release-row-actions";

/** Releases page (/admin/releases): every release, newest first, with add, edit and delete. */
export function AdminReleases({ releases, error }: { releases: ReleaseView[] | null; error: string | null }) {
  const [editing, setEditing] = useState<ReleaseView | "new" | null>(null);
  const deleter = useFetcher<ActionResult>();
  useActionToast(deleter.state === "idle" ? deleter.data : null);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button type="button" onClick={() => setEditing("new")}>
          <Plus aria-hidden /> Add release
        </Button>
      </div>
      {error ? <FormMessage>{error}</FormMessage> : null}
      {releases?.length === 0 ? <p className="text-muted-foreground">No releases yet.</p> : null}
      <ul className="flex flex-col gap-3" aria-label="Releases">
        {releases?.map((release) => (
          <li
            key={release.id}
            data-testid="admin-release"
            className="flex flex-col gap-2 rounded-lg border bg-card p-4"
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div>
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="font-mono text-primary">{release.version}</span>
                  {release.title ? ` — ${release.title}` : ""}
                  <ReleaseBadges release={release} />
                </p>
                <p className="text-sm text-muted-foreground">{formatReleaseDate(release.release_date)}</p>
                <ReleaseRolloutLine release={release} />
              </div>
              <div className="flex flex-wrap gap-2">
                <ReleaseFlagButtons release={release} />
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => setEditing(release)}
                  aria-label={`Edit ${release.version}`}
                >
                  <Pencil aria-hidden /> Edit
                </Button>
                <AlertDialog>
                  <AlertDialogTrigger asChild>
                    <Button type="button" variant="outline" size="sm" aria-label={`Delete ${release.version}`}>
                      <Trash2 aria-hidden /> Delete
                    </Button>
                  </AlertDialogTrigger>
                  <AlertDialogContent>
                    <AlertDialogHeader>
                      <AlertDialogTitle>Delete version {release.version}?</AlertDialogTitle>
                      <AlertDialogDescription>{DELETE_RELEASE_CONFIRMATION}</AlertDialogDescription>
                    </AlertDialogHeader>
                    <AlertDialogFooter>
                      <AlertDialogCancel>Cancel</AlertDialogCancel>
                      <AlertDialogAction
                        onClick={() => deleter.submit({ intent: "delete-release", id: release.id }, { method: "post" })}
                      >
                        Delete
                      </AlertDialogAction>
                    </AlertDialogFooter>
                  </AlertDialogContent>
                </AlertDialog>
              </div>
            </div>
            <ul className="list-disc pl-5 text-sm text-muted-foreground">
              {release.release_notes.map((note, i) => (
                <li key={i}>{note}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {editing ? (
        <ReleaseFormDialog release={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </div>
  );
}
