import express, { type NextFunction, type Request, type Response } from "express";
import {
  ApiInputError,
  inputErrorBody,
  readKey,
  readFingerprint,
  readLicenseId,
  readMachineField,
  readNonce,
  readOfflineData,
  readChannel,
  readQuery,
  readVersion,
} from "../app/server/license-api/api-input.server";
import { activateLicense } from "../app/server/license-api/activate-license.server";
import { hitApiRateLimit } from "../app/server/license-api/api-rate-limit.server";
import { keysAnswer, validateAnswer } from "../app/server/license-api/desktop-answers.server";
import { activateMachineByKey, deactivateMachineByKey } from "../app/server/license-api/machines-api.server";
import { latestUpdate } from "../app/server/license-api/latest-update.server";
import { CODE_DETAILS } from "../app/server/license-api/validate-license.server";
import { licenseFileForKey } from "../app/server/license-api/license-file.server";
import { openApiDocument } from "../app/server/license-api/openapi.server";
import { getLogger } from "../app/server/logger.server";
import { VersionRefused } from "../app/server/releases/release-writes.server";
import { ReleaseInputError } from "../app/domain/release-input";
import { answer, API_BODY_LIMIT, readBody, sendAnswer, sendSigned, tooMany, type Body } from "./api-answer";
import { clientIp, countDeferredIp, jsonBody, keyLimited } from "./api-key-requests";
import { leasesApi, leasesRouteMethods } from "./api-v1-leases";
import { eventsApi } from "./api-v1-events";
import { releasesApi, releasesRouteMethods } from "./api-v1-releases";
import { bodyLimit } from "./body-limit";

/**
 * The desktop tool's API (decision 0018, docs/desktop-api.md), mounted at /api/v1 before the site's body limit,
 * query guard and React Router: no cookies are read or set, no Origin/CSRF rule applies, and every
 * answer, errors included (413, 400, 404, 405, 429, 500), is JSON signed with Ed25519 over its
 * exact bytes in the Signature header. The routes are thin: parse, call app/server/license-api,
 * answer.
 */

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
  ["/machines/activate", "POST"],
  ["/machines/deactivate", "POST"],
  ["/updates/latest", "GET"],
  ["/events", "GET"],
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

/** The paths whose request names a license key, with their method. */
const KEY_ROUTES = new Map(
  ["/licenses/validate", "/licenses/activate", "/licenses/file", "/machines/activate", "/machines/deactivate"].map(
    (path) => [path, ROUTES.get(path)!],
  ),
);

apiV1.use((req, res, next) => {
  // Every request counts against its client IP. A request to a key path counts it together with its
  // key once the body is read (keyLimited), or, should it end before, in countDeferredIp.
  const keyMethod = KEY_ROUTES.get(req.path) ?? leasesRouteMethods(req.path)?.[0];
  if (keyMethod && (req.method === keyMethod || (keyMethod === "GET" && req.method === "HEAD"))) {
    res.locals.ipDeferred = true;
    return next();
  }
  hitApiRateLimit(clientIp(req)).then(({ limited, retryAfter }) => {
    if (!limited) return next();
    tooMany(res, retryAfter);
  }, next);
});
apiV1.use((req, res, next) => {
  // A control character anywhere in the query is refused for every path, naming the parameter.
  readQuery(req.originalUrl);
  const single = ROUTES.get(req.path);
  const methods = single ? [single] : (releasesRouteMethods(req.path) ?? leasesRouteMethods(req.path));
  if (methods === null) return answer(res, 404, { error: "There is no such API address." });
  const allowed = methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
  if (!allowed.includes(req.method)) {
    res.setHeader("Allow", allowed.join(", "));
    return answer(res, 405, { error: `Use ${methods.join(" or ")} for this address.` });
  }
  next();
});

// The desktop tool's two most frequent requests: decided by desktop-answers.server.ts, as on the fast path.
apiV1.get("/keys", (req, res) => {
  sendAnswer(res, keysAnswer(req.originalUrl, res.locals));
});

apiV1.post("/licenses/validate", async (req, res) => {
  const raw = await readBody(req);
  if (raw === null) {
    // Answered 413 already; the request still counts against its client IP.
    void countDeferredIp(req, res).catch(() => {});
    return;
  }
  sendAnswer(res, await validateAnswer(raw, clientIp(req), res.locals));
});

apiV1.post("/licenses/activate", async (req, res) => {
  const body = await jsonBody(req, res);
  if (!body) return;
  const key = readKey(body.key);
  const machine = readOfflineData(body);
  if (await keyLimited(key, req, res)) return;
  answer(res, 200, { ...(await activateLicense({ key, ...machine })) });
});

apiV1.get("/licenses/file", async (req, res) => {
  const params = query(req, res);
  const key = readKey(params.get("key"));
  const fingerprint = readFingerprint(params.get("fingerprint"), { required: false });
  if (await keyLimited(key, req, res)) return;
  const { code, file } = await licenseFileForKey(key, fingerprint);
  if (!file) return answer(res, 409, { error: `No license file: ${CODE_DETAILS[code]}`, code });
  answer(res, 200, { ...file });
});

apiV1.post("/machines/activate", async (req, res) => {
  const body = await jsonBody(req, res);
  if (!body) return;
  const key = readKey(body.key);
  const fingerprint = readFingerprint(body.fingerprint, { required: true })!;
  const name = readMachineField("name", body.name, { required: true })!;
  const platform = readMachineField("platform", body.platform, { required: false });
  const app_version = readMachineField("app_version", body.app_version, { required: false });
  if (await keyLimited(key, req, res)) return;
  answer(res, 200, { ...(await activateMachineByKey(key, { fingerprint, name, platform, app_version })) });
});

apiV1.post("/machines/deactivate", async (req, res) => {
  const body = await jsonBody(req, res);
  if (!body) return;
  const key = readKey(body.key);
  const fingerprint = readFingerprint(body.fingerprint, { required: true })!;
  if (await keyLimited(key, req, res)) return;
  answer(res, 200, { ...(await deactivateMachineByKey(key, fingerprint)) });
});

apiV1.get("/updates/latest", async (req, res) => {
  const params = query(req, res);
  const current = readVersion(params.get("current"));
  const channel = readChannel(params.get("channel"));
  // A newer tool names its machine, so a partial rollout can reach it (decision 0062): both or neither.
  const licenseId = readLicenseId(params.get("license_id"));
  const fingerprint = readFingerprint(params.get("fingerprint"), { required: licenseId !== undefined });
  if (fingerprint !== undefined && licenseId === undefined)
    throw new ApiInputError("license_id", "license_id is required with fingerprint.");
  const machine = licenseId && fingerprint ? { licenseId, fingerprint } : undefined;
  answer(res, 200, { ...(await latestUpdate(current, channel, machine)) });
});

apiV1.use(leasesApi);
apiV1.use(releasesApi);
apiV1.use(eventsApi);

apiV1.get("/openapi.json", (req, res) => {
  query(req, res);
  // The document as it is (OpenAPI allows no extra top-level fields), signed like every answer.
  sendSigned(res, 200, openApiDocument());
});

apiV1.use(async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
  if (res.headersSent) return;
  // A key path's request refused before its key was counted still counts against its client IP,
  // and a client over its limit hears 429 as it would on any other path.
  const ip = await countDeferredIp(req, res).catch(() => ({ limited: false, retryAfter: 0 }));
  if (ip.limited) return void tooMany(res, ip.retryAfter);
  if (error instanceof ApiInputError) {
    answer(res, 400, inputErrorBody(error));
    return;
  }
  if (error instanceof ReleaseInputError) {
    answer(res, error instanceof VersionRefused ? error.status : 400, {
      error: error.message,
      field: error.field,
      ...(error.code ? { code: error.code } : {}),
    });
    return;
  }
  getLogger().error({ err: error, path: req.originalUrl.split("?")[0] }, "desktop API request failed");
  answer(res, 500, { error: "Something went wrong on our side. Please try again." });
});
