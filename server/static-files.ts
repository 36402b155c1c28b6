import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type RequestHandler } from "express";

/**
 * The client build's files: hashed assets cached for a year, and the other public files (favicon,
 * icons…), known at start, so that a page or data request is not sent to the static handler (which
 * would look for a file of its name on disk every time).
 */
export function clientFiles(): { assets: RequestHandler; publicFiles: RequestHandler } {
  const clientDir = findClientDir();
  // Hashed file names never change content: cache them for a year.
  const assets = express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" });
  const files = listPublicFiles(clientDir);
  const publicFile = express.static(clientDir, { maxAge: "1h", index: false });
  return { assets, publicFiles: (req, res, next) => (files.has(req.path) ? publicFile(req, res, next) : next()) };
}

/** The build's client/ folder: beside the server/ folder this bundle (or its chunk) lives in. */
function findClientDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = path.join(dir, "client");
    if (fs.existsSync(path.join(candidate, "assets"))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error("Cannot find the client build (client/assets) next to the server build");
}

/** The client build's files outside assets/, as URL paths (`/favicon.ico`). */
export function listPublicFiles(clientDir: string): Set<string> {
  const files = new Set<string>();
  for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (relative[0] === "assets") continue;
    files.add(`/${relative.map(encodeURIComponent).join("/")}`);
  }
  return files;
}
