// A saved answer of the desktop API (`curl -si`), parsed for `npm run license:verify`.
import { LicenseVerifyError } from "./verify-inputs";

export interface HttpResponse {
  status: number;
  /** Header names in lower case; a repeated header keeps each value. */
  headers: Map<string, string[]>;
  /** The body's exact bytes. */
  body: Buffer;
  notes: string[];
}

export function looksLikeHttpResponse(text: string | Buffer): boolean {
  const head = (Buffer.isBuffer(text) ? text.subarray(0, 16).toString("latin1") : text.slice(0, 16)).trimStart();
  return /^HTTP\/\d(?:\.\d)? \d{3}/.test(head);
}

/**
 * The output of `curl -si` (or `curl -sD - `): status line and headers, a blank line, then the body
 * bytes as received. Interim answers (100 Continue, a proxy's 200 Connection established) are
 * skipped; a body longer than Content-Length (a newline an editor added) is cut to that length.
 */
export function parseHttpResponse(raw: Buffer): HttpResponse {
  let offset = 0;
  while (raw[offset] === 0x0d || raw[offset] === 0x0a) offset++;
  const notes: string[] = [];
  for (;;) {
    const end = headerEnd(raw, offset);
    if (!end) throw new LicenseVerifyError("the saved answer has no blank line between headers and body");
    const lines = raw.subarray(offset, end.headersEnd).toString("latin1").split(/\r?\n/);
    const statusLine = /^HTTP\/\d(?:\.\d)? (\d{3})(?: .*)?$/.exec(lines[0]!.trim());
    if (!statusLine) throw new LicenseVerifyError(`not an HTTP status line: ${lines[0]}`);
    const status = Number(statusLine[1]);
    const headers = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new LicenseVerifyError(`not a header line: ${line}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
    }
    const interim = (status >= 100 && status < 200) || (/connection established/i.test(lines[0]!) && status === 200);
    if (interim && looksLikeHttpResponse(raw.subarray(end.bodyStart))) {
      offset = end.bodyStart;
      continue;
    }
    let body = raw.subarray(end.bodyStart);
    const length = headers.get("content-length")?.[0];
    if (length !== undefined && /^\d+$/.test(length)) {
      const expected = Number(length);
      if (body.length > expected) {
        notes.push(`${body.length - expected} byte(s) after the Content-Length of ${expected} ignored`);
        body = body.subarray(0, expected);
      } else if (body.length < expected) {
        notes.push(`the body has ${body.length} bytes, fewer than its Content-Length of ${expected}`);
      }
    }
    const encoding = headers.get("content-encoding")?.[0];
    if (encoding && encoding !== "identity")
      throw new LicenseVerifyError(
        `the body was saved ${encoding}-compressed: save it again without --compressed (the signature covers the JSON)`,
      );
    return { status, headers, body, notes };
  }
}

function headerEnd(raw: Buffer, from: number): { headersEnd: number; bodyStart: number } | null {
  for (let i = from; i < raw.length; i++) {
    if (raw[i] !== 0x0a) continue;
    if (raw[i + 1] === 0x0a) return { headersEnd: i, bodyStart: i + 2 };
    if (raw[i + 1] === 0x0d && raw[i + 2] === 0x0a) return { headersEnd: i, bodyStart: i + 3 };
  }
  return null;
}
