import type { RequestHandler } from "express";
import type { Env } from "../app/server/env.server";
import { createZip } from "./zip";

/** The embedded default for DOWNLOAD_URL (`/downloads/forgekit-latest.zip`): a real archive, so the link works in the demo. */
export function demoDownload(env: Env): RequestHandler {
  return (_req, res) => {
    res
      .set("Content-Type", "application/zip")
      .set("Content-Disposition", `attachment; filename="${slug(env.PRODUCT_NAME)}-latest.zip"`)
      .send(demoInstaller(env.PRODUCT_NAME));
  };
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "download"
  );
}

function demoInstaller(productName: string): Buffer {
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
