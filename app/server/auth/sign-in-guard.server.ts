import { sql } from "drizzle-orm";
import { getDb } from "../db/db.server";

/**
 * Per-address protection of sign-in without a targeted lockout (OWASP authentication cheat
 * sheet; decision 0014). Only FAILED attempts count, per address and client IP, in the
 * database (table sign_in_failures) so every app server sees them. Once an address has
 * BACKOFF_AFTER_FAILURES failures, a client that has itself failed for it must wait before its
 * next try: 1 s after its first failure, doubling with each further one, at most 15 minutes.
 * A client that has not failed for the address (the owner, elsewhere) is never held back, and a
 * successful sign-in forgets that client's failures. The per-IP limit (rate-limit.server.ts)
 * still bounds every client's attempts a minute.
 */
export const BACKOFF_AFTER_FAILURES = 5;
export const MAX_DELAY_SECONDS = 15 * 60;
/** Failures are forgotten after this long without another one from the same client. */
export const FAILURE_MEMORY_SECONDS = 60 * 60;

/** The wait after a client's n-th failure for an address, in seconds. */
export function backoffSeconds(clientFailures: number): number {
  if (clientFailures <= 0) return 0;
  return Math.min(MAX_DELAY_SECONDS, 2 ** Math.min(clientFailures - 1, 30));
}

export type SignInCheck = { allowed: true } | { allowed: false; retryAfter: number };

const memory = sql.raw(`interval '${FAILURE_MEMORY_SECONDS} seconds'`);

/** Whether this client may try a password for this address now. */
export async function checkSignIn(email: string, clientIp: string): Promise<SignInCheck> {
  const address = email.toLowerCase();
  const result = await getDb().execute<{ total: number; mine: number; since: number | null }>(sql`
    select coalesce(sum(failures), 0)::int as total,
      coalesce(max(failures) filter (where client_ip = ${clientIp}), 0)::int as mine,
      extract(epoch from (now() - max(last_failure_at) filter (where client_ip = ${clientIp})))::float8 as since
    from sign_in_failures
    where email = ${address} and last_failure_at > now() - ${memory}`);
  const row = (result as unknown as { rows: { total: number; mine: number; since: number | null }[] }).rows[0];
  const total = Number(row?.total ?? 0);
  const mine = Number(row?.mine ?? 0);
  if (total < BACKOFF_AFTER_FAILURES || mine === 0) return { allowed: true };
  const wait = backoffSeconds(mine) - Number(row?.since ?? 0);
  return wait > 0 ? { allowed: false, retryAfter: Math.max(1, Math.ceil(wait)) } : { allowed: true };
}

/** Counts a wrong password (or unknown address) from this client. */
export async function recordSignInFailure(email: string, clientIp: string): Promise<void> {
  const db = getDb();
  await db.execute(sql`
    insert into sign_in_failures (email, client_ip, failures, last_failure_at)
    values (${email.toLowerCase()}, ${clientIp}, 1, now())
    on conflict (email, client_ip) do update set
      failures = case when sign_in_failures.last_failure_at <= now() - ${memory} then 1 else sign_in_failures.failures + 1 end,
      last_failure_at = now()`);
  // Now and then, forget failures long past.
  if (Math.random() < 0.01) {
    await db.execute(sql`delete from sign_in_failures where last_failure_at < now() - ${memory}`);
  }
}

/** A correct password: this client's failures for the address are forgotten. */
export async function recordSignInSuccess(email: string, clientIp: string): Promise<void> {
  await getDb().execute(
    sql`delete from sign_in_failures where email = ${email.toLowerCase()} and client_ip = ${clientIp}`,
  );
}
