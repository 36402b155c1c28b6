import { Copy, Eye, EyeOff, FileDown, KeyRound, Share2 } from "~/components/lucide-icons";
import { showToast } from "~/lib/toast";
import { cn } from "~/lib/utils";
import { NeedsScript } from "../needs-script";
import { Button, buttonVariants } from "../ui/button";
import { useHydrated } from "../use-hydrated";

/**
 * A license key in one line, cut off with an ellipsis; Show unfolds it (Hide folds it again), Copy
 * puts it on the clipboard and Share hands it to the phone's share sheet (where the browser has
 * one), so nobody has to select a 230-character line; the license file is next to it.
 * Show is a native disclosure read by CSS and the key selects whole on one click, so both work
 * without JavaScript; Copy needs it and says so until the scripts run. Every control names the
 * license's short id: a page of licenses has one Show and one Copy per card.
 */
export function LicenseKeyLine({
  licenseKey,
  shortId,
  copyable,
  fileHref = null,
}: {
  licenseKey: string;
  shortId: string;
  copyable: boolean;
  /** The signed license file, for a license valid now. */
  fileHref?: string | null;
}) {
  const hydrated = useHydrated();
  // Known only in the browser: the server's HTML never has the button (no hydration mismatch).
  const canShare = hydrated && typeof navigator.share === "function";
  const { copyKey, shareKey } = keyActions(licenseKey);
  return (
    <div className="flex flex-col gap-2">
      <span className="flex items-center gap-1.5 font-medium">
        <KeyRound aria-hidden className="size-4 text-primary" /> License key
      </span>
      <div className="group/key flex flex-wrap items-start gap-2">
        {/* The whole key is in the text (screen readers read it all); Show only unfolds it on screen. */}
        <code
          data-testid="license-key"
          className="min-w-0 flex-1 basis-40 truncate rounded-md border bg-background/60 px-3 py-2 font-mono text-xs select-all group-has-[details[open]]/key:break-all group-has-[details[open]]/key:whitespace-normal"
        >
          {licenseKey}
        </code>
        <div className="flex flex-wrap items-center gap-2">
          <ShowKey shortId={shortId} />
          {copyable ? (
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={copyKey}
              disabled={!hydrated}
              aria-label={`Copy license key ${shortId}`}
            >
              <Copy aria-hidden /> Copy
            </Button>
          ) : null}
          {copyable && canShare ? (
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={shareKey}
              aria-label={`Share license key ${shortId}`}
            >
              <Share2 aria-hidden /> Share
            </Button>
          ) : null}
          {copyable ? <NeedsScript /> : null}
          {fileHref ? (
            <Button asChild variant="outline" size="sm">
              {/* A file to save: a plain download, not a client-side navigation. */}
              <a href={fileHref} download aria-label={`Download license file ${shortId}`}>
                <FileDown aria-hidden /> Download license file
              </a>
            </Button>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** Show / Hide: a native disclosure whose state the key's line reads through CSS (no script needed). */
function ShowKey({ shortId }: { shortId: string }) {
  return (
    <details className="group/show" data-testid="license-key-show">
      <summary
        className={cn(
          buttonVariants({ variant: "outline", size: "sm" }),
          "cursor-pointer list-none [&::-webkit-details-marker]:hidden",
        )}
      >
        <Eye aria-hidden className="group-open/show:hidden" />
        <EyeOff aria-hidden className="hidden group-open/show:inline" />
        <span className="group-open/show:hidden">Show</span>
        <span className="hidden group-open/show:inline">Hide</span>
        <span className="sr-only"> license key {shortId}</span>
      </summary>
    </details>
  );
}

/** Copy puts the key on the clipboard, Share hands it to the phone's share sheet; each says how it went. */
function keyActions(licenseKey: string) {
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(licenseKey);
      showToast({ title: "Copied", description: "License key copied to the clipboard.", variant: "success" });
    } catch {
      showToast({ title: "Copy failed", description: "Select the key and copy it by hand.", variant: "destructive" });
    }
  };
  const shareKey = async () => {
    try {
      await navigator.share({ title: "License key", text: licenseKey });
    } catch (error) {
      // Closing the share sheet is not an error.
      if (!(error instanceof DOMException && error.name === "AbortError"))
        showToast({ title: "Share failed", description: "Copy the key instead.", variant: "destructive" });
    }
  };
  return { copyKey, shareKey };
}
