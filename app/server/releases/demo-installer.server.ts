import { createHash } from "node:crypto";
import { DEMO_DOWNLOAD_PATH, type Env } from "../env.server";
import { createZip } from "./zip.server";

/**
 * The archive the site serves at DOWNLOAD_URL's embedded default (`/downloads/forgekit-latest.zip`),
 * so the download link works in the demo. The same bytes give the seeded newest release its size and
 * SHA-256: the update check signs the checksum of exactly what the download answers.
 */
export function demoInstaller(productName: string): Buffer {
  return createZip([
    {
      name: "README.txt",
      content:
        `${productName} demo download\r\n\r\n` +
        `This archive is what the site serves while DOWNLOAD_URL is not configured.\r\n` +
        `Set DOWNLOAD_URL to the address of the real installer archive.\r\n`,
    },
  ]);
}

/**
 * The size and SHA-256 of the demo archive while DOWNLOAD_URL is its default; none otherwise (the
 * configured file is not ours to know: the admin's "Compute from the file" reads it).
 */
export function demoInstallerFacts(env: Pick<Env, "PRODUCT_NAME" | "DOWNLOAD_URL">): {
  installer_size_bytes: number | null;
  installer_sha256: string | null;
} {
  if (env.DOWNLOAD_URL !== DEMO_DOWNLOAD_PATH) return { installer_size_bytes: null, installer_sha256: null };
  const bytes = demoInstaller(env.PRODUCT_NAME);
  return { installer_size_bytes: bytes.length, installer_sha256: createHash("sha256").update(bytes).digest("hex") };
}
