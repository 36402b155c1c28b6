import { showToast } from "./toast";

/**
 * Puts text on the clipboard and says so in a toast; when the browser refuses (no permission, an
 * insecure page), the toast says how to copy by hand instead.
 */
export async function copyText(text: string, { copied, byHand }: { copied: string; byHand: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ title: "Copied", description: copied, variant: "success" });
  } catch {
    showToast({ title: "Copy failed", description: byHand, variant: "destructive" });
  }
}
