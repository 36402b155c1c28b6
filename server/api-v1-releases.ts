import express, { type Request, type Response } from "express";
import type { ApiTokenScope } from "../app/domain/api-token";
import { parseChannel } from "../app/domain/release-channel";
import { parseReleaseInput, parseReleasePatch, ReleaseInputError } from "../app/domain/release-input";
import { authenticateApiToken, type TokenCaller } from "../app/server/api-tokens/api-tokens.server";
import { parseJsonBody, readNonce, readQuery } from "../app/server/license-api/api-input.server";
import { createApiRelease, listApiReleases, patchApiRelease } from "../app/server/releases/api-releases.server";
import { answer, readBody, type Body } from "./api-answer";

/**
 * The releases API for the vendor's CI (decision 0039): `GET|POST /api/v1/releases` and
 * `PATCH /api/v1/releases/{version}`, with an API token of scope releases:write in
 * `Authorization: Bearer …` (never a cookie). Answers are signed JSON like the rest of /api/v1.
 */

const RELEASE_PATH = /^\/releases\/([^/]+)$/;

/** The methods of a releases address, or null when the path is not one. */
export function releasesRouteMethods(path: string): string[] | null {
  if (path === "/releases") return ["GET", "POST"];
  return RELEASE_PATH.test(path) ? ["PATCH"] : null;
}

/** The token's caller, or null after answering 401/403/429 with what is wrong. */
export async function authorize(req: Request, res: Response, scope: ApiTokenScope): Promise<TokenCaller | null> {
  const check = await authenticateApiToken(req.headers.authorization, scope);
  if (check.ok) return check.caller;
  const { refusal } = check;
  if (refusal.status === 401) res.setHeader("WWW-Authenticate", `Bearer error="invalid_token"`);
  if ("retryAfter" in refusal) res.setHeader("Retry-After", String(refusal.retryAfter));
  answer(res, refusal.status, { error: refusal.error, code: refusal.code });
  return null;
}

/** A JSON body whose nonce, if sent, is echoed (CI scripts need none). */
async function body(req: Request, res: Response): Promise<Body | null> {
  const raw = await readBody(req);
  if (raw === null) return null;
  const parsed = parseJsonBody(raw);
  res.locals.apiNonce = readNonce(parsed.nonce, { required: false });
  return parsed;
}

export const releasesApi = express.Router();

releasesApi.get("/releases", async (req, res) => {
  const params = readQuery(req.originalUrl);
  res.locals.apiNonce = readNonce(params.get("nonce"), { required: false });
  if (!(await authorize(req, res, "releases:write"))) return;
  const given = params.get("channel");
  const channel = given === undefined ? null : parseChannel(given);
  if (given !== undefined && channel === null)
    throw new ReleaseInputError("channel", 'channel must be "stable" or "beta".');
  answer(res, 200, { releases: await listApiReleases(channel) });
});

releasesApi.post("/releases", async (req, res) => {
  const caller = await authorize(req, res, "releases:write");
  if (!caller) return;
  const given = await body(req, res);
  if (!given) return;
  const release = await createApiRelease(caller.actor, parseReleaseInput(given));
  answer(res, 201, { release });
});

releasesApi.patch("/releases/:version", async (req, res) => {
  const caller = await authorize(req, res, "releases:write");
  if (!caller) return;
  const given = await body(req, res);
  if (!given) return;
  const version = String(req.params.version);
  const release = await patchApiRelease(caller.actor, version, parseReleasePatch(given));
  if (!release) return answer(res, 404, { error: `There is no release ${version}.`, field: "version" });
  answer(res, 200, { release });
});
