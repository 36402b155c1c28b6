import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { APIError } from "better-auth/api";
import { constantTimeEqual, symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { ACCOUNT_TEXTS as A, CODE_ALREADY_USED } from "~/domain/account-texts";
import type { Enrolment } from "~/domain/account-views";
import { getDb } from "../db/db.server";
import { twoFactors, users, verifications } from "../db/schema";
import { getEnv } from "../env.server";
import { CLIENT_IP_HEADER, getAuth } from "./auth.server";
import { notifyRecoveryCodeUsed, notifyTwoFactorChanged } from "./notify-account-owner.server";
import { authCookies } from "./auth-cookies.server";
import { verifySignedCookie } from "./session.server";
import { recoveryCodesLeft, storedFormOf } from "./recovery-codes.server";
import { forgetSessionsOf } from "../cache/caches.server";

/** Better Auth's cookie that carries a sign-in waiting for its second step. */
async function twoFactorCookieName(): Promise<string> {
  const context = await getAuth().$context;
  return context.createAuthCookie("two_factor").name;
}

/**
 * The user whose sign-in waits for its code: the signed two_factor cookie Better Auth set after
 * the password names a verification row that has not expired. Null when there is none.
 */
export async function pendingTwoFactorUser(request: Request): Promise<{ id: string; email: string } | null> {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const name = await twoFactorCookieName();
  let signed: string | undefined;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        signed = decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return null;
      }
      break;
    }
  }
  if (!signed) return null;
  const identifier = verifySignedCookie(signed, (await getAuth().$context).secret);
  if (!identifier) return null;
  const [row] = await getDb()
    .select({ id: users.id, email: users.email })
    .from(verifications)
    .innerJoin(users, sql`${users.id}::text = ${verifications.value}`)
    .where(and(eq(verifications.identifier, identifier), gt(verifications.expiresAt, new Date())));
  return row ?? null;
}

/** The base32 secret in an otpauth:// URI, for people who type it instead of scanning. */
export function secretOfUri(uri: string): string {
  try {
    return new URL(uri).searchParams.get("secret") ?? "";
  } catch {
    return "";
  }
}

/** The otpauth:// URI as an SVG QR code, drawn on the server (no image request, no script). */
export async function qrCodeSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** Step one of turning two-factor on: password checked, a new secret and ten recovery codes. */
export async function startEnrolment(request: Request, password: string): Promise<Enrolment> {
  const result = await getAuth().api.enableTwoFactor({ body: { password }, headers: request.headers });
  if (!("totpURI" in result) || !result.totpURI) throw new Error("no TOTP URI from enableTwoFactor");
  return {
    uri: result.totpURI,
    secret: secretOfUri(result.totpURI),
    qrSvg: await qrCodeSvg(result.totpURI),
    recoveryCodes: result.backupCodes ?? [],
    madeAt: new Date().toISOString(),
  };
}

/** Better Auth's TOTP period; it accepts the code of the step before and after the current one too. */
const TOTP_PERIOD_MS = 30_000;

/**
 * Each authenticator code works once (docs/security.md): before Better Auth checks a code, the code's
 * time-step is claimed for the user in the database, only if it is later than the last step
 * accepted, in one conditional UPDATE (so two sign-ins with the same code, on one app server or
 * two, have one winner). A replayed code, or an older one, is refused with CODE_ALREADY_USED. A
 * code that matches no step is left to Better Auth, which refuses and counts it.
 */
export async function claimTotpCode(userId: string, code: string): Promise<void> {
  const [row] = await getDb()
    .select({ secret: twoFactors.secret })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  if (!row) return;
  const decrypted = await symmetricDecrypt({ key: getEnv().BETTER_AUTH_SECRET, data: row.secret });
  const otp = createOTP(decrypted.startsWith("base32:") ? base32.decode(decrypted.slice(7).toUpperCase()) : decrypted);
  const now = Math.floor(Date.now() / TOTP_PERIOD_MS);
  let step: number | null = null;
  for (const candidate of [now - 1, now, now + 1]) {
    if (constantTimeEqual(await otp.hotp(candidate), code)) step = candidate;
  }
  if (step === null) return;
  const claimed = await getDb()
    .update(twoFactors)
    .set({ lastTotpStep: step })
    .where(and(eq(twoFactors.userId, userId), or(isNull(twoFactors.lastTotpStep), lt(twoFactors.lastTotpStep, step))))
    .returning({ id: twoFactors.id });
  if (claimed.length === 0) throw new APIError("BAD_REQUEST", { code: CODE_ALREADY_USED, message: A.codeUsed });
}

/** Step two: a current code from the app confirms the secret and turns two-factor on (the owner is told). */
export async function confirmEnrolment(request: Request, userId: string, code: string): Promise<Headers> {
  await claimTotpCode(userId, code);
  const result = await getAuth().api.verifyTOTP({ body: { code }, headers: request.headers, returnHeaders: true });
  notifyTwoFactorChanged(userId, true);
  return authCookies(result.headers);
}

/** Turning it off takes a current code and the password; the session is renewed and the owner told. */
export async function disableTwoFactor(
  request: Request,
  userId: string,
  password: string,
  code: string,
): Promise<Headers> {
  await claimTotpCode(userId, code);
  await getAuth().api.verifyTOTP({ body: { code }, headers: request.headers });
  const result = await getAuth().api.disableTwoFactor({
    body: { password },
    headers: request.headers,
    returnHeaders: true,
  });
  notifyTwoFactorChanged(userId, false);
  return authCookies(result.headers);
}

/**
 * The sign-in's second step with an authenticator code, or a recovery code (in any case, with or
 * without its dash; used up, and the owner is told how many are left).
 */
export async function completeSignIn(
  request: Request,
  userId: string,
  code: string,
  kind: "totp" | "recovery",
): Promise<Headers> {
  const api = getAuth().api;
  const headers = request.headers;
  if (kind === "totp") {
    await claimTotpCode(userId, code);
    return authCookies((await api.verifyTOTP({ body: { code }, headers, returnHeaders: true })).headers);
  }
  const stored = await storedFormOf(userId, code);
  const result = await api.verifyBackupCode({ body: { code: stored }, headers, returnHeaders: true });
  notifyRecoveryCodeUsed(userId, headers.get(CLIENT_IP_HEADER), (await recoveryCodesLeft(userId)) ?? 0);
  return authCookies(result.headers);
}

/**
 * Enrols a user directly in the database with a known base32 secret (the seeded demo admin,
 * admins created by scripts and tests): the same rows Better Auth writes when a person confirms
 * a secret on the profile, encrypted with BETTER_AUTH_SECRET.
 */
export async function enrolWithSecret(
  db: Pick<ReturnType<typeof getDb>, "insert" | "update">,
  userId: string,
  base32Secret: string,
  recoveryCodes: string[] = [],
): Promise<void> {
  const key = getEnv().BETTER_AUTH_SECRET;
  const secret = await symmetricEncrypt({ key, data: `base32:${base32Secret.toUpperCase()}` });
  const backupCodes = await symmetricEncrypt({ key, data: JSON.stringify(recoveryCodes) });
  await db
    .insert(twoFactors)
    .values({ userId, secret, backupCodes, verified: true })
    .onConflictDoUpdate({ target: twoFactors.userId, set: { secret, backupCodes, verified: true } });
  await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, userId));
  forgetSessionsOf(userId);
}
