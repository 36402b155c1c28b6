import type { AppLoadContext } from "react-router";
import { publicConfig } from "~/server/env.server";
import { getEnv } from "~/server/env.server";

export const ORIGIN = "http://localhost:3000";

/** The load context the Express server gives routes. */
export function testContext(clientIp = "203.0.113.7"): AppLoadContext {
  return { cspNonce: "test", publicConfig: publicConfig(getEnv()), clientIp };
}

/** A form POST as the browser would send it to a route action. */
export function formRequest(pathname: string, fields: Record<string, string>, cookie?: string): Request {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`${ORIGIN}${pathname}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

export function getRequest(pathname: string, cookie?: string): Request {
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`${ORIGIN}${pathname}`, { headers });
}

/** What a route action/loader returned: a Response (redirect) or data() with its status. */
export function unwrap(result: unknown): { status: number; data: any; headers: Headers } {
  if (result instanceof Response) return { status: result.status, data: null, headers: result.headers };
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const r = result as { data: unknown; init: ResponseInit | null };
    return { status: r.init?.status ?? 200, data: r.data, headers: new Headers(r.init?.headers) };
  }
  return { status: 200, data: result, headers: new Headers() };
}

/** Runs a loader/action, turning a thrown redirect Response into a result too. */
export async function call(fn: () => unknown): Promise<{ status: number; data: any; headers: Headers }> {
  try {
    return unwrap(await fn());
  } catch (thrown) {
    if (thrown instanceof Response) return unwrap(thrown);
    const t = thrown as { type?: string };
    if (t && t.type === "DataWithResponseInit") return unwrap(thrown);
    throw thrown;
  }
}

/** The cookie header a browser would send next, from Set-Cookie headers. */
export function cookieFrom(headers: Headers, previous = ""): string {
  const jar = new Map<string, string>();
  for (const part of previous.split(/;\s*/).filter(Boolean)) {
    const [k, ...v] = part.split("=");
    jar.set(k!, v.join("="));
  }
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(";");
    const [k, ...v] = pair!.split("=");
    const value = v.join("=");
    if (/max-age=0/i.test(line) || value === "") jar.delete(k!);
    else jar.set(k!, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Route args as React Router passes them (the generated per-route types differ only in name). */
export const routeArgs = (request: Request, ip?: string): any => ({ request, context: testContext(ip), params: {} });

let signInIp = 0;
/** Signs in through the login action and returns the cookie a browser would send next. */
export async function signInCookie(email: string, password: string): Promise<string> {
  const { action } = await import("~/routes/login");
  const result = await call(() =>
    action(routeArgs(formRequest("/login", { email, password, redirectTo: "/" }), `192.0.2.${(++signInIp % 250) + 1}`)),
  );
  if (result.status !== 302) throw new Error(`sign-in failed for ${email}: ${result.status}`);
  const cookie = cookieFrom(result.headers);
  if (!result.headers.get("Location")?.startsWith("/login/two-factor")) return cookie;
  // Two-factor on (the seeded admin, admins made by createUser): the second step with the
  // current code of the account's stored secret, as an authenticator app would show it.
  const secondStep = await import("~/routes/login.two-factor");
  const code = await currentCodeFor(email);
  const done = await call(() =>
    secondStep.action(
      routeArgs(formRequest("/login/two-factor", { code, redirectTo: "/" }, cookie), `192.0.2.${(signInIp % 250) + 1}`),
    ),
  );
  if (done.status !== 302) throw new Error(`two-factor sign-in failed for ${email}: ${done.status}`);
  return cookieFrom(done.headers, cookie);
}

/**
 * A TOTP code for an account enrolled in two-factor (its secret decrypted as Better Auth does) that
 * the site has not accepted yet: each code works once, so after the current step was used this is
 * the next step's code (accepted one step ahead). When that was used too, the stored step is
 * forgotten, standing in for waiting half a minute (these sign-ins are not what a test is about).
 */
export async function currentCodeFor(email: string): Promise<string> {
  const { getDb } = await import("~/server/db/db.server");
  const { twoFactors, users } = await import("~/server/db/schema");
  const { eq, sql } = await import("drizzle-orm");
  const { symmetricDecrypt } = await import("better-auth/crypto");
  const { createOTP } = await import("@better-auth/utils/otp");
  const { base32 } = await import("@better-auth/utils/base32");
  const { currentStep } = await import("./totp");
  const [row] = await getDb()
    .select({ id: twoFactors.id, secret: twoFactors.secret, lastStep: twoFactors.lastTotpStep })
    .from(twoFactors)
    .innerJoin(users, eq(users.id, twoFactors.userId))
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (!row) throw new Error(`${email} has no two-factor secret`);
  const secret = await symmetricDecrypt({ key: getEnv().BETTER_AUTH_SECRET, data: row.secret });
  const now = currentStep();
  let step = Math.max(now, (row.lastStep ?? -Infinity) + 1);
  if (step > now + 1) {
    await getDb().update(twoFactors).set({ lastTotpStep: null }).where(eq(twoFactors.id, row.id));
    step = now;
  }
  return createOTP(secret.startsWith("base32:") ? base32.decode(secret.slice(7)) : secret).hotp(step);
}
