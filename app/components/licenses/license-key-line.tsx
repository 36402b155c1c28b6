import { Copy, Eye, EyeOff, KeyRound } from "lucide-react";
import { useId, useState } from "react";
import { showToast } from "~/lib/toast";
import { cn } from "~/lib/utils";
import { Button } from "../ui/button";

/**
 * A license key in one line, cut off with an ellipsis; Show unfolds it (Hide folds it again) and
 * Copy puts it on the clipboard, where the key still works.
 */
export function LicenseKeyLine({ licenseKey, copyable }: { licenseKey: string; copyable: boolean }) {
  const [shown, setShown] = useState(false);
  const keyId = useId();
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(licenseKey);
      showToast({ title: "Copied", description: "License key copied to the clipboard.", variant: "success" });
    } catch {
      showToast({ title: "Copy failed", description: "Select the key and copy it by hand.", variant: "destructive" });
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
        <div className="flex gap-2">
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
        </div>
      </div>
    </div>
  );
}
