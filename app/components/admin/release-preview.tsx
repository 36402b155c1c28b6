import { Download } from "~/components/lucide-icons";
import { formatReleaseDate, RELEASE_MARKS } from "~/domain/release-format";
import type { ReleaseView } from "~/domain/views";
import { InstallerDetails } from "../installer-details";
import { Badge } from "../ui/badge";

/** What the form holds, as the download page's latest-version card would show it. */
export interface ReleaseDraft {
  version: string;
  title: string;
  release_date: string;
  channel: string;
  download_url: string;
  installer_size_bytes: string;
  installer_sha256: string;
}

/**
 * The download card's preview (decision 0039): the version, date and title, the button's address, and
 * the installer's size and SHA-256 exactly as the download page would show them once published.
 */
export function ReleasePreview({ draft, siteDownloadUrl }: { draft: ReleaseDraft; siteDownloadUrl: string }) {
  const size = Number(draft.installer_size_bytes.replace(/[\s_,]/g, ""));
  const sha256 = draft.installer_sha256.trim().toLowerCase();
  const release = {
    installer_size_bytes: Number.isSafeInteger(size) && size > 0 ? size : null,
    installer_sha256: /^[0-9a-f]{64}$/.test(sha256) ? sha256 : null,
  } as ReleaseView;
  const downloadUrl = draft.download_url.trim() || siteDownloadUrl;
  return (
    <section
      aria-labelledby="release-preview-heading"
      data-testid="release-preview"
      className="flex flex-col gap-3 rounded-lg border border-dashed border-primary/40 p-4"
    >
      <h3 id="release-preview-heading" className="text-sm font-medium text-muted-foreground">
        Preview of the download card
      </h3>
      <p className="flex flex-wrap items-center gap-2 text-lg font-semibold">
        Latest version {draft.version.trim() || "…"}
        {draft.channel === "beta" ? <Badge variant="secondary">{RELEASE_MARKS.beta}</Badge> : null}
      </p>
      <p className="text-sm text-muted-foreground">
        {draft.release_date ? `Released ${formatReleaseDate(draft.release_date)}` : "No release date"}
        {draft.title.trim() ? ` · ${draft.title.trim()}` : ""}
      </p>
      {draft.channel === "beta" ? (
        <p className="text-sm text-muted-foreground">Beta releases are offered on the beta channel only, not here.</p>
      ) : null}
      <p className="flex items-center gap-2 text-sm">
        <Download aria-hidden className="size-4" />
        <span className="[overflow-wrap:anywhere]" data-testid="preview-download-url">
          {downloadUrl}
        </span>
      </p>
      <InstallerDetails release={release} wingetPackageId={null} downloadUrl={downloadUrl} />
    </section>
  );
}
