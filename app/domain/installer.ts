/** The download page's installer facts (docs/decisions/0024). */

/** "48.2 MB" (decimal units, as Windows Explorer's neighbours and browsers show downloads). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** The command that installs the tool with winget, for a configured package id. */
export function wingetCommand(packageId: string): string {
  return `winget install --id ${packageId} --exact`;
}

/** The PowerShell command that prints a downloaded file's SHA-256, to compare with the page's. */
export function hashCommand(downloadUrl: string): string {
  const name = downloadUrl.split(/[?#]/)[0]!.split("/").pop() || "installer.zip";
  return `Get-FileHash .\\${name} -Algorithm SHA256`;
}
