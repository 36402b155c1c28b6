import type { RequestHandler } from "express";
import type { Env } from "../app/server/env.server";
import { demoInstaller } from "../app/server/releases/demo-installer.server";

/** The embedded default for DOWNLOAD_URL (`/downloads/forgekit-latest.zip`): a real archive, so the link works in the demo. */
export function demoDownload(env: Env): RequestHandler {
  const archive = demoInstaller(env.PRODUCT_NAME);
  return (_req, res) => {
    res
      .set("Content-Type", "application/zip")
      .set("Content-Disposition", `attachment; filename="${slug(env.PRODUCT_NAME)}-latest.zip"`)
      .send(archive);
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
