import type { Request, Response } from "express";
import { signatureHeader, signingKeys } from "../app/server/license-api/signing.server";
import { FORM_BODY_LIMIT } from "./body-limit";

/** How the API (/api/v1) answers and reads bodies: shared by its routers (api-v1.ts, api-v1-releases.ts). */

export const API_BODY_LIMIT = FORM_BODY_LIMIT;

export type Body = Record<string, unknown>;

/** Sends a body as JSON with its Signature header (no ETag, no 304: the signed bytes always go out). */
export function sendSigned(res: Response, status: number, body: unknown): Response {
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  res.status(status);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", bytes.length);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Signature", signatureHeader(signingKeys(), bytes));
  res.end(bytes);
  return res;
}

/** An answer of the endpoints: the body, then the request's nonce (when it sent one) and issued_at. */
export function answer(res: Response, status: number, body: Body): Response {
  const nonce = res.locals.apiNonce as string | undefined;
  return sendSigned(res, status, {
    ...body,
    ...(nonce !== undefined ? { nonce } : {}),
    issued_at: new Date().toISOString(),
  });
}

/** The request body (read here, at most API_BODY_LIMIT), or null when the body limit refused it (413 sent). */
export function readBody(req: Request): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | null) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= API_BODY_LIMIT) chunks.push(chunk);
    });
    req.on("end", () => settle(size <= API_BODY_LIMIT ? Buffer.concat(chunks) : null));
    req.on("error", () => settle(null));
    req.on("close", () => settle(null));
  });
}
