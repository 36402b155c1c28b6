import { Pencil, Plus, Trash2, X } from "lucide-react";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { DELETE_RELEASE_CONFIRMATION } from "~/domain/admin";
import { formatReleaseDate } from "~/domain/release-format";
import type { ActionResult } from "~/domain/action-result";
import type { ReleaseView } from "~/domain/views";
import { FieldErrors, FormMessage } from "../form-field";
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
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/dialog";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { useActionToast } from "../use-action-toast";

const today = () => new Date().toISOString().slice(0, 10);

/** Releases tab: every release, newest first, with add, edit and delete. */
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
                <p className="font-medium">
                  <span className="font-mono text-primary">{release.version}</span>
                  {release.title ? ` — ${release.title}` : ""}
                </p>
                <p className="text-sm text-muted-foreground">{formatReleaseDate(release.release_date)}</p>
              </div>
              <div className="flex gap-2">
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

/** The release form: version, optional title, date, and note rows (at least one). */
function ReleaseFormDialog({ release, onClose }: { release: ReleaseView | null; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  const answer = fetcher.state === "idle" ? fetcher.data : null;
  useActionToast(answer);
  const [notes, setNotes] = useState<{ key: number; text: string }[]>(() =>
    (release?.release_notes.length ? release.release_notes : [""]).map((text, key) => ({ key, text })),
  );
  const [nextKey, setNextKey] = useState(notes.length);
  useEffect(() => {
    if (answer?.ok) onClose();
  }, [answer, onClose]);
  const errors = answer?.fieldErrors ?? {};
  const busy = fetcher.state !== "idle";
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{release ? `Edit version ${release.version}` : "Add release"}</DialogTitle>
          <DialogDescription>
            Releases appear at once on the download page, the release notes and the feed.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="flex flex-col gap-4" noValidate>
          <input type="hidden" name="intent" value="save-release" />
          {release ? <input type="hidden" name="id" value={release.id} /> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="flex flex-col gap-2">
              <Label htmlFor="release-version">Version</Label>
              <Input
                id="release-version"
                name="version"
                defaultValue={release?.version ?? ""}
                aria-invalid={errors.version ? true : undefined}
              />
              <FieldErrors errors={errors.version} />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="release-date">Release date</Label>
              <Input
                id="release-date"
                name="release_date"
                type="date"
                defaultValue={release?.release_date ?? today()}
              />
              <FieldErrors errors={errors.release_date} />
            </div>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="release-title">Title (optional)</Label>
            <Input id="release-title" name="title" defaultValue={release?.title ?? ""} />
            <FieldErrors errors={errors.title} />
          </div>
          <div className="grid gap-4 sm:grid-cols-[1fr_2fr]">
            <div className="flex flex-col gap-2">
              <Label htmlFor="release-size">Installer size in bytes (optional)</Label>
              <Input
                id="release-size"
                name="installer_size_bytes"
                inputMode="numeric"
                defaultValue={release?.installer_size_bytes ?? ""}
                aria-invalid={errors.installer_size_bytes ? true : undefined}
              />
              <FieldErrors errors={errors.installer_size_bytes} />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="release-sha256">Installer SHA-256 (optional)</Label>
              <Input
                id="release-sha256"
                name="installer_sha256"
                className="font-mono"
                spellCheck={false}
                autoComplete="off"
                maxLength={200}
                defaultValue={release?.installer_sha256 ?? ""}
                aria-invalid={errors.installer_sha256 ? true : undefined}
              />
              <FieldErrors errors={errors.installer_sha256} />
            </div>
          </div>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium">Release notes</legend>
            {notes.map((note, index) => (
              <div key={note.key} className="flex gap-2">
                <Input
                  name="release_notes"
                  aria-label={`Note ${index + 1}`}
                  value={note.text}
                  onChange={(e) =>
                    setNotes(notes.map((n) => (n.key === note.key ? { ...n, text: e.target.value } : n)))
                  }
                />
                {notes.length > 1 ? (
                  <Button
                    type="button"
                    variant="outline"
                    size="icon"
                    aria-label={`Remove note ${index + 1}`}
                    onClick={() => setNotes(notes.filter((n) => n.key !== note.key))}
                  >
                    <X aria-hidden />
                  </Button>
                ) : null}
              </div>
            ))}
            <FieldErrors errors={errors.release_notes} />
            <Button
              type="button"
              variant="secondary"
              size="sm"
              className="self-start"
              onClick={() => {
                setNotes([...notes, { key: nextKey, text: "" }]);
                setNextKey(nextKey + 1);
              }}
            >
              <Plus aria-hidden /> Add note
            </Button>
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {release ? "Save release" : "Add release"}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
