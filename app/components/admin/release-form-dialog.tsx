import { Calculator } from "~/components/lucide-icons";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import type { ReleaseView } from "~/domain/views";
import { FieldErrors, FormError } from "../form-field";
import { Button } from "../ui/button";
import { Checkbox } from "../ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/dialog";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { NativeSelect } from "../ui/native-select";
import { useActionToast } from "../use-action-toast";
import { useRootData } from "../use-root-data";
import { ReleaseNoteRows } from "./release-note-rows";
import { ReleasePreview, type ReleaseDraft } from "./release-preview";
import { ReleaseRolloutFields } from "./release-rollout-fields";

type SaveAnswer = ActionResult & { older?: boolean };
type DigestAnswer = ActionResult & { digest?: { size: number; sha256: string } };
type Errors = Record<string, string[]>;

const today = () => new Date().toISOString().slice(0, 10);

function draftOf(release: ReleaseView | null): ReleaseDraft {
  return {
    version: release?.version ?? "",
    title: release?.title ?? "",
    release_date: release?.release_date ?? today(),
    channel: release?.channel ?? "stable",
    download_url: release?.download_url ?? "",
    installer_size_bytes: release?.installer_size_bytes ? String(release.installer_size_bytes) : "",
    installer_sha256: release?.installer_sha256 ?? "",
  };
}

/**
 * The release form (decision 0039): a new release is a draft until published ("Save and publish" or the
 * list's Publish); the preview shows the download card it makes; the installer's size and SHA-256
 * are entered or computed from the file the release points to; an older version asks to confirm.
 */
export function ReleaseFormDialog({ release, onClose }: { release: ReleaseView | null; onClose: () => void }) {
  const fetcher = useFetcher<SaveAnswer>();
  const answer = fetcher.state === "idle" ? fetcher.data : null;
  useActionToast(answer);
  const [draft, setDraft] = useState(() => draftOf(release));
  const form = useRef<HTMLFormElement>(null);
  const siteDownloadUrl = useRootData()?.publicConfig.downloadUrl ?? "";
  useEffect(() => {
    if (answer?.ok) onClose();
  }, [answer, onClose]);
  const errors: Errors = answer?.fieldErrors ?? {};
  const readDraft = () => {
    const values = new FormData(form.current!);
    setDraft((current) => ({
      ...current,
      ...Object.fromEntries(Object.keys(current).map((key) => [key, String(values.get(key) ?? "")])),
    }));
  };
  const published = Boolean(release?.published_at);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{release ? `Edit version ${release.version}` : "Add release"}</DialogTitle>
          <DialogDescription>
            {published
              ? "This release is published: changes appear at once on the download page, the release notes and the feed."
              : "A draft is on no public page and offered to no one until it is published."}
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form ref={form} method="post" className="flex flex-col gap-4" noValidate onChange={readDraft}>
          <input type="hidden" name="intent" value="save-release" />
          {release ? <input type="hidden" name="id" value={release.id} /> : null}
          <FormError errors={errors} answer={answer} />
          <MainFields draft={draft} errors={errors} />
          {answer?.older ? <ConfirmOlder /> : null}
          <InstallerFields draft={draft} setDraft={setDraft} errors={errors} />
          <ReleaseRolloutFields release={release} errors={errors} />
          <ReleaseNoteRows initial={release?.release_notes ?? []} errors={errors} />
          <ReleasePreview draft={draft} siteDownloadUrl={siteDownloadUrl} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant={published ? "default" : "outline"} disabled={fetcher.state !== "idle"}>
              {published ? "Save release" : "Save draft"}
            </Button>
            {published ? null : (
              <Button type="submit" name="publish" value="1" disabled={fetcher.state !== "idle"}>
                Save and publish
              </Button>
            )}
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}

function ConfirmOlder() {
  return (
    <div className="flex items-start gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm">
      <Checkbox id="release-allow-older" name="allow_older" className="mt-0.5" />
      <Label htmlFor="release-allow-older" className="font-normal leading-snug">
        This version is meant to sort before the newest release (a fix for an older line): add it anyway.
      </Label>
    </div>
  );
}

function MainFields({ draft, errors }: { draft: ReleaseDraft; errors: Errors }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="flex flex-col gap-2">
          <Label htmlFor="release-version">Version</Label>
          <Input
            id="release-version"
            name="version"
            defaultValue={draft.version}
            placeholder="2.5.0"
            aria-invalid={errors.version ? true : undefined}
          />
          <FieldErrors errors={errors.version} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="release-date">Release date</Label>
          <Input id="release-date" name="release_date" type="date" defaultValue={draft.release_date} />
          <FieldErrors errors={errors.release_date} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="release-channel">Channel</Label>
          <NativeSelect id="release-channel" name="channel" defaultValue={draft.channel}>
            <option value="stable">Stable</option>
            <option value="beta">Beta</option>
          </NativeSelect>
          <FieldErrors errors={errors.channel} />
        </div>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="release-title">Title (optional)</Label>
        <Input id="release-title" name="title" defaultValue={draft.title} />
        <FieldErrors errors={errors.title} />
      </div>
    </>
  );
}

function InstallerFields({
  draft,
  setDraft,
  errors,
}: {
  draft: ReleaseDraft;
  setDraft: (update: (current: ReleaseDraft) => ReleaseDraft) => void;
  errors: Errors;
}) {
  const digest = useFetcher<DigestAnswer>();
  const computed = digest.state === "idle" ? digest.data : null;
  useActionToast(computed);
  useEffect(() => {
    const found = computed?.digest;
    if (found) {
      setDraft((current) => ({ ...current, installer_size_bytes: String(found.size), installer_sha256: found.sha256 }));
    }
  }, [computed, setDraft]);
  const field = (key: "installer_size_bytes" | "installer_sha256") => ({
    name: key,
    value: draft[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setDraft((current) => ({ ...current, [key]: e.target.value })),
    "aria-invalid": errors[key] ? true : undefined,
  });
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border p-4">
      <legend className="px-1 text-sm font-medium">Installer</legend>
      <div className="flex flex-col gap-2">
        <Label htmlFor="release-download-url">Download address (blank: the site&apos;s download address)</Label>
        <Input id="release-download-url" name="download_url" defaultValue={draft.download_url} inputMode="url" />
        <FieldErrors errors={errors.download_url} />
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_2fr]">
        <div className="flex flex-col gap-2">
          <Label htmlFor="release-size">Size in bytes</Label>
          <Input id="release-size" inputMode="numeric" {...field("installer_size_bytes")} />
          <FieldErrors errors={errors.installer_size_bytes} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="release-sha256">SHA-256</Label>
          <Input
            id="release-sha256"
            className="font-mono"
            spellCheck={false}
            autoComplete="off"
            maxLength={200}
            {...field("installer_sha256")}
          />
          <FieldErrors errors={errors.installer_sha256} />
        </div>
      </div>
      <Button
        type="button"
        variant="secondary"
        size="sm"
        className="self-start"
        disabled={digest.state !== "idle"}
        onClick={() =>
          digest.submit({ intent: "compute-installer", download_url: draft.download_url }, { method: "post" })
        }
      >
        <Calculator aria-hidden /> {digest.state === "idle" ? "Compute from the file" : "Reading the file…"}
      </Button>
    </fieldset>
  );
}
