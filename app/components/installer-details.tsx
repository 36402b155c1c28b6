import { formatBytes, hashCommand, wingetCommand } from "~/domain/installer";
import type { ReleaseView } from "~/domain/views";

/**
 * Under the download buttons: the installer's size and SHA-256 when the latest release records
 * them, how to install, and the winget command when a package id is configured.
 */
export function InstallerDetails({
  release,
  wingetPackageId,
  downloadUrl,
}: {
  release: ReleaseView | undefined;
  wingetPackageId: string | null;
  downloadUrl: string;
}) {
  const size = release?.installer_size_bytes ?? null;
  const sha256 = release?.installer_sha256 ?? null;
  return (
    <div className="flex flex-col gap-4 text-sm">
      {size !== null || sha256 !== null ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="installer-facts">
          {size !== null ? (
            <>
              <dt className="text-muted-foreground">Size</dt>
              <dd data-testid="installer-size">{formatBytes(size)}</dd>
            </>
          ) : null}
          {sha256 !== null ? (
            <>
              <dt className="text-muted-foreground">SHA-256</dt>
              <dd className="font-mono text-xs [overflow-wrap:anywhere]" data-testid="installer-sha256">
                {sha256}
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <section aria-labelledby="how-to-install" className="flex flex-col gap-2">
        <h3 id="how-to-install" className="font-medium">
          How to install
        </h3>
        <ol className="flex list-decimal flex-col gap-1 pl-5 text-muted-foreground">
          <li>Unzip the download and run the setup program inside; Windows may ask to allow changes.</li>
          <li>Start the tool and choose the free trial, or paste the key from your licenses page.</li>
          {sha256 !== null ? (
            <li>
              To check the download first, run{" "}
              <code className="font-mono [overflow-wrap:anywhere]">{hashCommand(downloadUrl)}</code> in PowerShell and
              compare the hash with the one above.
            </li>
          ) : null}
        </ol>
      </section>
      {wingetPackageId ? (
        <section aria-labelledby="winget" className="flex flex-col gap-2" data-testid="winget">
          <h3 id="winget" className="font-medium">
            Or with winget
          </h3>
          <code className="rounded-md border bg-background/60 px-3 py-2 font-mono text-xs [overflow-wrap:anywhere]">
            {wingetCommand(wingetPackageId)}
          </code>
        </section>
      ) : null}
    </div>
  );
}
