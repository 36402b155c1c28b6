import express, { type Response } from "express";
import { LEASE_TTL_DEFAULT_MINUTES } from "../app/domain/leases";
import {
  readFingerprint,
  readKey,
  readLeaseId,
  readMachineField,
  readNonce,
  readQuery,
  readTtlMinutes,
} from "../app/server/license-api/api-input.server";
import {
  heartbeatLeaseByKey,
  returnLeaseByKey,
  takeLeaseByKey,
  type LeaseAnswer,
} from "../app/server/license-api/leases-api.server";
import { answer } from "./api-answer";
import { jsonBody, keyLimited } from "./api-key-requests";

/**
 * Floating leases for machines that come and go (decision 0069, docs/desktop-api.md): take and
 * heartbeat name the license by its key in a JSON body with a nonce, return in the query; each is
 * counted against the key's rate limit like every key path, and answered signed. The decisions are app/server/license-api's.
 */

const LEASE_PATH = /^\/leases\/([^/]+)$/;
const HEARTBEAT_PATH = /^\/leases\/([^/]+)\/heartbeat$/;

/** The methods of a leases address, or null when the path is not one (every one names a license key). */
export function leasesRouteMethods(path: string): string[] | null {
  if (path === "/leases" || HEARTBEAT_PATH.test(path)) return ["POST"];
  return LEASE_PATH.test(path) ? ["DELETE"] : null;
}

const send = (res: Response, decided: LeaseAnswer) => answer(res, decided.status, decided.body);

export const leasesApi = express.Router();

leasesApi.post("/leases", async (req, res) => {
  const body = await jsonBody(req, res);
  if (!body) return;
  const key = readKey(body.key);
  const fingerprint = readFingerprint(body.fingerprint, { required: true })!;
  const name = readMachineField("name", body.name, { required: false });
  const ttlMinutes = readTtlMinutes(body.ttl_minutes, LEASE_TTL_DEFAULT_MINUTES);
  if (await keyLimited(key, req, res)) return;
  send(res, await takeLeaseByKey(key, { fingerprint, name, ttlMinutes }));
});

leasesApi.post("/leases/:id/heartbeat", async (req, res) => {
  const body = await jsonBody(req, res);
  if (!body) return;
  const key = readKey(body.key);
  const leaseId = readLeaseId(String(req.params.id));
  const ttlMinutes = readTtlMinutes(body.ttl_minutes, undefined);
  if (await keyLimited(key, req, res)) return;
  send(res, await heartbeatLeaseByKey(key, leaseId, ttlMinutes));
});

// The key in the query, as GET /licenses/file takes it: many clients send no body with DELETE.
leasesApi.delete("/leases/:id", async (req, res) => {
  const params = readQuery(req.originalUrl);
  res.locals.apiNonce = readNonce(params.get("nonce"), { required: false });
  const key = readKey(params.get("key"));
  const leaseId = readLeaseId(String(req.params.id));
  if (await keyLimited(key, req, res)) return;
  send(res, await returnLeaseByKey(key, leaseId));
});
