import { constants, inflateSync } from "node:zlib";

/**
 * The text a PDF shows, as far as tests need it: every content stream (inflated when compressed),
 * its text-showing operators' strings (hex `<…> Tj` as pdf-lib writes them, or literal `(…) Tj`).
 */
export function pdfText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  const raw = buffer.toString("latin1");
  const shown: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) continue;
    const body = buffer.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(body, { finishFlush: constants.Z_SYNC_FLUSH }).toString("latin1");
    } catch {
      content = body.toString("latin1");
    }
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f\s]*)>\s*Tj/g))
      shown.push(Buffer.from(hex!.replace(/\s/g, ""), "hex").toString("latin1"));
    for (const [, literal] of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) shown.push(literal!);
  }
  return shown.join("\n");
}
