import express, { type NextFunction, type Request, type Response } from "express";
import {
  ApiInputError,
  parseJsonBody,
  readKey,
  readMachineValue,
  readNonce,
  readOfflineData,
  readQuery,
  readVersion,
} from "../app/server/license-api/api-input.server";
import { activateLicense } from "../app/server/license-api/activate-license.server";
import { hitApiRateLimit } from "../app/server/license-api/api-rate-limit.server";
import { latestUpdate } from "../app/server/license-api/latest-update.server";
import { CODE_DETAILS } from "../app/server/license-api/validate-license.server";
import { licenseFileForKey } from "../app/server/license-api/license-file.server";
import { openApiDocument } from "../app/server/license-api/openapi.server";
import { signatureHeader, signingKeys } from "../app/server/license-api/signing.server";
import { validateLicense } from "../app/server/license-api/validate-license.server";
import { getLogger } from "../app/server/logger.server";
import { bodyLimit, FORM_BODY_LIMIT } from "./body-limit";

/**
 * The desktop tool's API (issue 12, decision 0018), mounted at /api/v1 before the site's body limit,
 * query guard and React Router: no cookies are read or set, no Origin/CSRF rule applies, and every
 * answer, errors included (413, 400, 404, 405, 429, 500), is JSON signed with Ed25519 over its
 * exact bytes in the Signature header. The routes are thin: parse, call app/server/license-api,
 * answer.
 */

export const API_BODY_LIMIT = FORM_BODY_LIMIT;

type Body = Record<string, unknown>;

/** Sends a body as JSON with its Signature header (no ETag, no 304: the signed bytes always go out). */
function sendSigned(res: Response, status: number, body: unknown): Response {
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
function answer(res: Response, status: number, body: Body): Response {
  const nonce = res.locals.apiNonce as string | undefined;
  return sendSigned(res, status, {
    ...body,
    ...(nonce !== undefined ? { nonce } : {}),
    issued_at: new Date().toISOString(),
  });
}

/** The request body (read here, at most API_BODY_LIMIT), or null when the body limit refused it (413 sent). */
function readBody(req: Request): Promise<Buffer | null> {
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

async function jsonBody(req: Request, res: Response): Promise<Body | null> {
  const raw = await readBody(req);
  if (raw === null) return null;
  const body = parseJsonBody(raw);
  // The nonce first, so that every later error echoes it.
  res.locals.apiNonce = readNonce(body.nonce, { required: true });
  return body;
}

/** GET parameters: the query once, and the optional nonce echoed. */
function query(req: Request, res: Response): Map<string, string> {
  const params = readQuery(req.originalUrl);
  res.locals.apiNonce = readNonce(params.get("nonce"), { required: false });
  return params;
}

const ROUTES = new Map([
  ["/keys", "GET"],
  ["/licenses/validate", "POST"],
  ["/licenses/activate", "POST"],
  ["/licenses/file", "GET"],
  ["/updates/latest", "GET"],
  ["/openapi.json", "GET"],
]);

export const apiV1 = express.Router();

apiV1.use((_req, res, next) => {
  // Whoever answers inside the API (the body limit's 413 too) answers signed JSON with issued_at.
  // (The body limit answers text outside /api/ paths, and inside this router the path is relative.)
  res.json = (body: Body) => answer(res, res.statusCode, body);
  res.send = (body: unknown) =>
    answer(res, res.statusCode, typeof body === "object" && body !== null ? (body as Body) : { error: String(body) });
  next();
});
apiV1.use(bodyLimit(() => API_BODY_LIMIT));
apiV1.use((req, res, next) => {
  const { limited, retryAfter } = hitApiRateLimit(req.ip ?? req.socket.remoteAddress ?? "unknown");
  if (!limited) return next();
  res.setHeader("Retry-After", String(retryAfter));
  answer(res, 429, { error: `Too many requests. Try again in ${retryAfter} seconds.` });
});
apiV1.use((req, res, next) => {
  // A control character anywhere in the query is refused for every path, naming the parameter.
  readQuery(req.originalUrl);
  const method = ROUTES.get(req.path);
  if (method === undefined) return answer(res, 404, { error: "There is no such API address." });
  if (req.method !== method && !(method === "GET" && req.method === "HEAD")) {
    res.setHeader("Allow", method === "GET" ? "GET, HEAD" : method);
    return answer(res, 405, { error: `Use ${method} for this address.` });
  }
  next();
});

apiV1.get("/keys", (req, res) => {
  query(req, res);
  answer(res, 200, { keys: signingKeys().published });
});

apiV1.post("/licenses/validate", async (req, res) => {
  const body = await jsonBody(req, res);
  if (!body) return;
  const key = readKey(body.key);
  const windows_username = readMachineValue("windows_username", body.windows_username, { required: false });
  const computer_name = readMachineValue("computer_name", body.computer_name, { required: false });
  answer(res, 200, { ...(await validateLicense({ key, windows_username, computer_name })) });
});

apiV1.post("/licenses/activate", async (req, res) => {
  const body = await jsonBody(req, res);
  if (!body) return;
  const key = readKey(body.key);
  const machine = readOfflineData(body);
  answer(res, 200, { ...(await activateLicense({ key, ...machine })) });
});

apiV1.get("/licenses/file", async (req, res) => {
  const params = query(req, res);
  const key = readKey(params.get("key"));
  const { code, file } = await licenseFileForKey(key);
  if (!file) return answer(res, 409, { error: `No license file: ${CODE_DETAILS[code]}`, code });
  answer(res, 200, { ...file });
});

apiV1.get("/updates/latest", async (req, res) => {
  const params = query(req, res);
  const current = readVersion(params.get("current"));
  answer(res, 200, { ...(await latestUpdate(current)) });
});

apiV1.get("/openapi.json", (req, res) => {
  query(req, res);
  // The document as it is (OpenAPI allows no extra top-level fields), signed like every answer.
  sendSigned(res, 200, openApiDocument());
});

apiV1.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
  if (res.headersSent) return;
  if (error instanceof ApiInputError) {
    answer(res, 400, { error: error.message, field: error.field });
    return;
  }
  getLogger().error({ err: error, path: req.originalUrl.split("?")[0] }, "desktop API request failed");
  answer(res, 500, { error: "Something went wrong on our side. Please try again." });
});
