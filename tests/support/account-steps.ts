import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import * as login from "~/routes/login";
import * as loginTwoFactor from "~/routes/login.two-factor";
import * as profile from "~/routes/profile";
import { accounts, user_roles } from "~/server/db/schema";
import { call, cookieFrom, formRequest, getRequest, routeArgs, signInCookie } from "./route-call";
import { createUser, type TestApp } from "./test-app";
import { codeAtStep, currentStep } from "./totp";

export const MEMBER_PASSWORD = "correct-horse-1";

/** A code that is surely not the current one (nor the one before or after). */
export async function wrongCode(secret: string) {
  const key = base32.decode(secret);
  const near = new Set<string>();
  const step = Math.floor(Date.now() / 30_000);
  for (const counter of [step - 1, step, step + 1]) near.add(await createOTP(key).hotp(counter));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.has(candidate)) return candidate;
  }
}

/**
 * The account steps the integration tests take as a person would, through the route modules: a
 * member with a password, the profile's account actions and page, the two sign-in steps, and
 * turning two-factor on.
 */
export function accountSteps(app: () => TestApp, engine: string) {
  let n = 0;
  const ip = () => `198.51.100.${(++n % 250) + 1}`;
  const db = () => app().database.db;

  /**
   * The app's current code. Each code works once (tests/integration/auth/two-factor-replay.test.ts proves it); tests about
   * other rules use codes in quick succession, so the used steps are forgotten first, standing in
   * for waiting for the app's next code.
   */
  const codeOf = async (secret: string) => {
    await db().execute(sql`update two_factors set last_totp_step = null`);
    return codeAtStep(secret, currentStep());
  };

  /** A confirmed account with a password, made directly in the database, signed in. */
  async function member(prefix: string, role: "user" | "admin" = "user") {
    const email = `${prefix}-${engine}-${++n}@example.com`;
    const user = await createUser(db(), email, { fullName: "Mia Member" });
    await db()
      .insert(accounts)
      .values({
        accountId: user.id,
        providerId: "credential",
        userId: user.id,
        password: await hashPassword(MEMBER_PASSWORD),
      });
    if (role === "admin") await db().update(user_roles).set({ role: "admin" }).where(eq(user_roles.user_id, user.id));
    return { ...user, cookie: await signInCookie(email, MEMBER_PASSWORD) };
  }

  const post = (cookie: string, fields: Record<string, string>, clientIp = ip()) =>
    // As the page's scripts post (a native post of an action that renews the session is redirected).
    call(() => profile.action(routeArgs(formRequest("/profile.data", fields, cookie), clientIp)));
  const loadProfile = (cookie: string) => call(() => profile.loader(routeArgs(getRequest("/profile", cookie))));

  async function passwordStep(email: string, password: string, clientIp = ip()) {
    const result = await call(() =>
      login.action(routeArgs(formRequest("/login", { email, password, redirectTo: "/licenses" }), clientIp)),
    );
    return { ...result, cookie: cookieFrom(result.headers) };
  }
  const codeStep = (cookie: string, code: string, clientIp = ip()) =>
    call(() =>
      loginTwoFactor.action(
        routeArgs(formRequest("/login/two-factor", { code, redirectTo: "/licenses" }, cookie), clientIp),
      ),
    );

  /** Turns two-factor on through the profile; returns the secret and recovery codes shown. */
  async function enrol(cookie: string) {
    const started = await post(cookie, { intent: "two-factor-start", password: MEMBER_PASSWORD });
    expect(started.status).toBe(200);
    const { secret, recoveryCodes, qrSvg, uri } = started.data.enrolment;
    expect(uri).toMatch(/^otpauth:\/\/totp\/ForgeKit:/);
    expect(qrSvg).toContain("<svg");
    expect(recoveryCodes).toHaveLength(10);
    const confirmed = await post(cookie, { intent: "two-factor-confirm", code: await codeOf(secret) });
    expect(confirmed.status).toBe(200);
    return {
      secret: secret as string,
      recoveryCodes: recoveryCodes as string[],
      cookie: cookieFrom(confirmed.headers, cookie),
    };
  }

  return { ip, codeOf, member, post, loadProfile, passwordStep, codeStep, enrol };
}
