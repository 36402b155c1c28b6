import { createHash, randomBytes } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import {
  API_TOKEN_PREFIX,
  bearerToken,
  isTokenShaped,
  refuseToken,
  TOKEN_PREFIX_SHOWN,
  TOKEN_REFUSALS,
  type ApiTokenScope,
  type TokenForm,
  type TokenRefusal,
} from "~/domain/api-token";
import type { ApiTokenView } from "~/domain/views";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { getDb } from "../db/db.server";
import { api_tokens } from "../db/schema";
import { hitTokenRateLimit } from "../license-api/api-rate-limit.server";

/** Hex SHA-256 of a token: all the database keeps of it. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Creates a token; the returned `token` is the only time it exists outside the caller (shown once). */
export async function createApiToken({
  admin,
  form,
  now = new Date(),
}: {
  admin: AuditActor;
  form: TokenForm;
  now?: Date;
}): Promise<{ id: string; token: string }> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const expires_at = new Date(now.getTime() + form.expires_in_days * 86_400_000);
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(api_tokens)
      .values({
        name: form.name,
        token_hash: hashToken(token),
        token_prefix: token.slice(0, TOKEN_PREFIX_SHOWN),
        scopes: form.scopes,
        expires_at,
        created_by: admin.id,
      })
      .returning({ id: api_tokens.id });
    await recordAudit(tx, admin, {
      action: "api_token.create",
      target_type: "api_token",
      target_id: row!.id,
      details: { name: form.name, scopes: form.scopes, expires_at: expires_at.toISOString() },
    });
    return { id: row!.id, token };
  });
}

/** Every token, newest first, without its hash. */
export async function listApiTokens(): Promise<ApiTokenView[]> {
  const rows = await getDb()
    .select({
      id: api_tokens.id,
      name: api_tokens.name,
      token_prefix: api_tokens.token_prefix,
      scopes: api_tokens.scopes,
      expires_at: api_tokens.expires_at,
      last_used_at: api_tokens.last_used_at,
      revoked_at: api_tokens.revoked_at,
      created_at: api_tokens.created_at,
    })
    .from(api_tokens)
    .orderBy(desc(api_tokens.created_at));
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return rows.map((row) => ({
    ...row,
    expires_at: row.expires_at.toISOString(),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
    created_at: row.created_at.toISOString(),
  }));
}

/** Revokes a token at once (every later use answers 401); recorded in the audit log. */
export async function revokeApiToken({ admin, id }: { admin: AuditActor; id: string }): Promise<{ name: string }> {
  if (!isUuid(id)) throw new ActionError(404, "Token not found.");
  return getDb().transaction(async (tx) => {
    const [row] = await tx.select().from(api_tokens).where(eq(api_tokens.id, id)).for("update");
    if (!row) throw new ActionError(404, "Token not found.");
    if (row.revoked_at) throw new ActionError(409, `The token ${row.name} is already revoked.`);
    await tx.update(api_tokens).set({ revoked_at: new Date() }).where(eq(api_tokens.id, id));
    await recordAudit(tx, admin, {
      action: "api_token.revoke",
      target_type: "api_token",
      target_id: id,
      details: { name: row.name },
    });
    return { name: row.name };
  });
}

/** Who a token request acts as: the token, named in the audit log. */
export interface TokenCaller {
  id: string;
  name: string;
  actor: AuditActor;
}

export type TokenCheck =
  | { ok: true; caller: TokenCaller }
  | { ok: false; refusal: TokenRefusal | { status: 429; code: "rate_limited"; error: string; retryAfter: number } };

/**
 * The token of a request's Authorization header, checked for the scope: found by its hash, not
 * expired or revoked, holding the scope, and within API_TOKEN_RATE_LIMIT requests a minute. Its
 * last use is recorded. Only the header counts: cookies are never read.
 */
export async function authenticateApiToken(
  authorization: string | undefined,
  scope: ApiTokenScope,
  now = new Date(),
): Promise<TokenCheck> {
  const token = bearerToken(authorization);
  if (token === null) return { ok: false, refusal: TOKEN_REFUSALS.token_missing };
  if (!isTokenShaped(token)) return { ok: false, refusal: TOKEN_REFUSALS.token_invalid };
  const hash = hashToken(token);
  const [row] = await getDb().select().from(api_tokens).where(eq(api_tokens.token_hash, hash));
  if (!row) return { ok: false, refusal: TOKEN_REFUSALS.token_invalid };
  const limited = await hitTokenRateLimit(row.id);
  if (limited.limited) {
    return {
      ok: false,
      refusal: {
        status: 429,
        code: "rate_limited",
        error: `Too many requests with this token. Try again in ${limited.retryAfter} seconds.`,
        retryAfter: limited.retryAfter,
      },
    };
  }
  const refusal = refuseToken(row, scope, now);
  if (refusal) return { ok: false, refusal };
  await getDb().update(api_tokens).set({ last_used_at: now }).where(eq(api_tokens.id, row.id));
  return { ok: true, caller: { id: row.id, name: row.name, actor: { id: null, email: `API token ${row.name}` } } };
}
