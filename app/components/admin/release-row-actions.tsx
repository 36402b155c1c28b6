import { Ban, Send, Undo2 } from "~/components/lucide-icons";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { releaseStatus } from "~/domain/release-channel";
import { RELEASE_MARKS } from "~/domain/release-format";
import type { ReleaseView } from "~/domain/views";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { useActionToast } from "../use-action-toast";

const STATUS_LABELS = {
  draft: { label: "Draft", variant: "outline" },
  published: { label: "Published", variant: "success" },
  yanked: { label: RELEASE_MARKS.yanked, variant: "warning" },
} as const;

/** A release's state and channel in the admin list. */
export function ReleaseBadges({ release }: { release: ReleaseView }) {
  const status = STATUS_LABELS[releaseStatus(release)];
  return (
    <span className="inline-flex flex-wrap gap-1.5" data-testid="release-status">
      <Badge variant={status.variant}>{status.label}</Badge>
      {release.channel === "beta" ? <Badge variant="secondary">{RELEASE_MARKS.beta}</Badge> : null}
    </span>
  );
}

/** Publish or unpublish, yank or restore (decision 0039); each audited by the service. */
export function ReleaseFlagButtons({ release }: { release: ReleaseView }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : null);
  const submit = (flag: string) => fetcher.submit({ intent: "release-flag", id: release.id, flag }, { method: "post" });
  const busy = fetcher.state !== "idle";
  const published = Boolean(release.published_at);
  return (
    <>
      <Button
        type="button"
        variant={published ? "outline" : "default"}
        size="sm"
        disabled={busy}
        onClick={() => submit(published ? "unpublish" : "publish")}
        aria-label={`${published ? "Unpublish" : "Publish"} ${release.version}`}
      >
        {published ? <Undo2 aria-hidden /> : <Send aria-hidden />} {published ? "Unpublish" : "Publish"}
      </Button>
      {published ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={busy}
          onClick={() => submit(release.yanked_at ? "unyank" : "yank")}
          aria-label={`${release.yanked_at ? "Restore" : "Yank"} ${release.version}`}
        >
          <Ban aria-hidden /> {release.yanked_at ? "Restore" : "Yank"}
        </Button>
      ) : null}
    </>
  );
}
