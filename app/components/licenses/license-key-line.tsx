import { Copy, Eye, EyeOff, FileDown, KeyRound, Share2 } from "lucide-react";
import { useId, useState } from "react";
import { showToast } from "~/lib/toast";
import { cn } from "~/lib/utils";
import { Button } from "../ui/button";
import { useHydrated } from "../use-hydrated";

/**
 * A license key in one line, cut off with an ellipsis; Show unfolds it (Hide folds it again), Copy
 * puts it on the clipboard and Share hands it to the phone's share sheet (where the browser has
 * one), so nobody has to select a 230-character line (issue 28); the license file is next to it.
 */
export function LicenseKeyLine({
  licenseKey,
  copyable,
  fileHref = null,
}: {
  licenseKey: string;
  copyable: boolean;
  /** The signed license file, for a license valid now. */
  fileHref?: string | null;
}) {
  const [shown, setShown] = useState(false);
  const keyId = useId();
  // Known only in the browser: the server's HTML never has the button (no hydration mismatch).
  const canShare = useHydrated() && typeof navigator.share === "function";
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
  return (
    <div className="flex flex-col gap-2">
      <span className="flex items-center gap-1.5 font-medium">
        <KeyRound aria-hidden className="size-4 text-primary" /> License key
      </span>
      <div className="flex flex-wrap items-start gap-2">
        <code
          id={keyId}
          data-testid="license-key"
          className={cn(
            "min-w-0 flex-1 basis-40 rounded-md border bg-background/60 px-3 py-2 font-mono text-xs",
            shown ? "break-all" : "truncate",
          )}
        >
          {licenseKey}
        </code>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-expanded={shown}
            aria-controls={keyId}
            onClick={() => setShown(!shown)}
          >
            {shown ? <EyeOff aria-hidden /> : <Eye aria-hidden />} {shown ? "Hide" : "Show"}
          </Button>
          {copyable ? (
            <Button type="button" variant="secondary" size="sm" onClick={copyKey} aria-label="Copy license key">
              <Copy aria-hidden /> Copy
            </Button>
          ) : null}
          {copyable && canShare ? (
            <Button type="button" variant="secondary" size="sm" onClick={shareKey} aria-label="Share license key">
              <Share2 aria-hidden /> Share
            </Button>
          ) : null}
          {fileHref ? (
            <Button asChild variant="outline" size="sm">
              {/* A file to save: a plain download, not a client-side navigation. */}
              <a href={fileHref} download>
                <FileDown aria-hidden /> Download license file
              </a>
            </Button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
