import { gunzipSync, gzipSync } from "node:zlib";

/**
 * A minimal gzipped tar (ustar, regular files only): what a backup archive holds. Any `tar`
 * reads it (`tar -tzf forgekit-backup-…-with-secrets.tar.gz`).
 */

export interface TarEntry {
  name: string;
  content: Buffer;
  /** File mode (0o600 by default: a backup holds secrets). */
  mode?: number;
}

const BLOCK = 512;

function header(entry: TarEntry, mtime: Date): Buffer {
  const name = Buffer.from(entry.name, "utf8");
  if (name.length > 100) throw new Error(`tar entry name too long: ${entry.name}`);
  const block = Buffer.alloc(BLOCK);
  name.copy(block, 0);
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, "0") + "\0";
  block.write(octal(entry.mode ?? 0o600, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(entry.content.length, 12), 124, "ascii");
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, "ascii");
  block.write("        ", 148, "ascii");
  block.write("0", 156, "ascii");
  block.write("ustar\0" + "00", 257, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "ascii");
  return block;
}

export function writeTarGz(entries: TarEntry[], mtime = new Date()): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry, mtime), entry.content);
    const pad = (BLOCK - (entry.content.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}

/** The regular files of a gzipped tar, by name; throws on anything that is not one. */
export function readTarGz(archive: Buffer): Map<string, Buffer> {
  let data: Buffer;
  try {
    data = gunzipSync(archive);
  } catch {
    throw new Error("not a gzip file");
  }
  const files = new Map<string, Buffer>();
  for (let offset = 0; offset + BLOCK <= data.length;) {
    const block = data.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      block
        .subarray(start, start + length)
        .toString("utf8")
        .replace(/\0.*$/s, "")
        .trim();
    const name = field(0, 100);
    const size = Number.parseInt(field(124, 12), 8);
    if (!name || !Number.isFinite(size) || size < 0) throw new Error("not a tar archive");
    const type = field(156, 1);
    const start = offset + BLOCK;
    if (type === "0" || type === "") files.set(name, Buffer.from(data.subarray(start, start + size)));
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
