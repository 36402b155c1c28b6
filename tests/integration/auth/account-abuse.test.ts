import type * as BetterAuthCrypto from "better-auth/crypto";
import type * as EvenTiming from "~/server/auth/even-timing.server";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as confirmEmail from "~/routes/confirm-email";
import * as forgotPassword from "~/routes/forgot-password";
import * as login from "~/routes/login";
import * as register from "~/routes/register";
import { MINIMUM_ANSWER_MS } from "~/server/auth/even-timing.server";
import { RATE_LIMIT_MESSAGE } from "~/server/auth/rate-limit.server";
import { BACKOFF_AFTER_FAILURES, backoffSeconds } from "~/server/auth/sign-in-guard.server";
import { rate_limits, sign_in_failures, users } from "~/server/db/schema";
import { setMailer, type MailMessage } from "~/server/mail/mailer.server";
import { flushMail, pendingMailCount } from "~/server/mail/outbox.server";
import { call, formRequest, routeArgs } from "../../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

// Count the password hashes registration makes (Better Auth's own calls are not affected).
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock("better-auth/crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof BetterAuthCrypto>();
  return {
    ...actual,
    hashPassword: async (password: string) => {
      hashes.count++;
      return actual.hashPassword(password);
    },
  };
});

// Record the floors the answers wait for (the waiting itself is unchanged).
const floors = vi.hoisted(() => ({ waited: [] as number[] }));
vi.mock("~/server/auth/even-timing.server", async (importOriginal) => {
  const actual = await importOriginal<typeof EvenTiming>();
  return {
    ...actual,
    takeAtLeast: <T>(ms: number, work: () => Promise<T>) => {
      floors.waited.push(ms);
      return actual.takeAtLeast(ms, work);
    },
  };
});

const PASSWORD = "owner-pass-1";
const registration = (email: string) => ({
  full_name: "Owner",
  email,
  password: PASSWORD,
  company_name: "",
  terms: "on",
});

describe.each(testEngines())("abuse of accounts on %s", (engine) => {
  let app: TestApp;
  let n = 0;
  const fresh = (prefix: string) => `${prefix}-${++n}@example.com`;

  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await flushMail();
    app.mails.length = 0;
    await app.database.db.delete(rate_limits);
  });

  /** A confirmed account with a password, made through registration. */
  async function owner(prefix: string): Promise<string> {
    const email = fresh(prefix);
    const result = await call(() =>
      register.action(routeArgs(formRequest("/register", registration(email)), "192.0.2.250")),
    );
    expect(result.status).toBe(302);
    await app.database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
    await app.database.db.delete(rate_limits);
    return email;
  }

  const signIn = (email: string, password: string, ip: string) =>
    call(() => login.action(routeArgs(formRequest("/login", { email, password, redirectTo: "/" }), ip)));

  describe("no targeted lockout", () => {
    it("ten wrong passwords from one client do not lock the owner out; that client is held back", async () => {
      const email = await owner("target");
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await signIn(email, "wrong-password", "203.0.113.10")).status);
      // Five failures are answered; then the back-off refuses the client that failed.
      expect(statuses).toEqual([
        ...Array(BACKOFF_AFTER_FAILURES).fill(401),
        ...Array(10 - BACKOFF_AFTER_FAILURES).fill(429),
      ]);

      const ownerElsewhere = await signIn(email, PASSWORD, "198.51.100.20");
      expect(ownerElsewhere.status).toBe(302);

      // The minute of the per-IP limit has passed (its counters are gone): the back-off still holds,
      // even with the right password, with the existing text and a Retry-After.
      await app.database.db.delete(rate_limits);
      const attacker = await signIn(email, PASSWORD, "203.0.113.10");
      expect(attacker.status).toBe(429);
      expect(attacker.data.fieldErrors.form).toEqual([RATE_LIMIT_MESSAGE]);
      expect(attacker.data.toast.description).toBe(RATE_LIMIT_MESSAGE);
      expect(Number(attacker.headers.get("Retry-After"))).toBeGreaterThan(0);
    });

    it("wrong passwords from many clients do not lock the owner out either", async () => {
      const email = await owner("spray");
      for (let i = 0; i < 12; i++)
        expect((await signIn(email, "wrong-password", `203.0.113.${50 + i}`)).status).toBe(401);
      expect((await signIn(email, PASSWORD, "198.51.100.21")).status).toBe(302);
    });

    it("the wait grows with each failure of the held-back client", async () => {
      const email = await owner("grow");
      const client = "203.0.113.30";
      for (let i = 0; i < BACKOFF_AFTER_FAILURES; i++)
        expect((await signIn(email, "wrong-password", client)).status).toBe(401);
      expect((await signIn(email, "wrong-password", client)).status).toBe(429);
      // Let the current wait pass (move the last failure back), so the client gets one more try.
      const wait = backoffSeconds(BACKOFF_AFTER_FAILURES);
      await app.database.db
        .update(sign_in_failures)
        .set({ last_failure_at: sql`now() - make_interval(secs => ${wait + 1})` })
        .where(eq(sign_in_failures.email, email));
      expect((await signIn(email, "wrong-password", client)).status).toBe(401);
      const [row] = await app.database.db.select().from(sign_in_failures).where(eq(sign_in_failures.email, email));
      expect(row!.failures).toBe(BACKOFF_AFTER_FAILURES + 1);
      // The same pause is no longer enough after one more failure.
      await app.database.db
        .update(sign_in_failures)
        .set({ last_failure_at: sql`now() - make_interval(secs => ${wait + 1})` })
        .where(eq(sign_in_failures.email, email));
      const refused = await signIn(email, PASSWORD, client);
      expect(refused.status).toBe(429);
      expect(backoffSeconds(BACKOFF_AFTER_FAILURES + 1)).toBeGreaterThan(wait);
    });

    it("a success forgets the client's failures", async () => {
      const email = await owner("reset");
      const client = "203.0.113.40";
      for (let i = 0; i < BACKOFF_AFTER_FAILURES - 1; i++)
        expect((await signIn(email, "wrong-password", client)).status).toBe(401);
      expect((await signIn(email, PASSWORD, client)).status).toBe(302);
      await app.database.db.delete(rate_limits);
      // Counted from zero again: five more failures are answered before the back-off starts.
      for (let i = 0; i < BACKOFF_AFTER_FAILURES; i++)
        expect((await signIn(email, "wrong-password", client)).status).toBe(401);
      expect((await signIn(email, "wrong-password", client)).status).toBe(429);
    });

    it("the per-IP limit still holds: the 11th attempt a minute from one client gets 429, whatever the address", async () => {
      const client = "203.0.113.60";
      for (let i = 0; i < 10; i++) expect((await signIn(fresh("ip"), "wrong-password", client)).status).toBe(401);
      const eleventh = await signIn(fresh("ip"), "wrong-password", client);
      expect(eleventh.status).toBe(429);
      expect(eleventh.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(eleventh.data.fieldErrors.form).toEqual([RATE_LIMIT_MESSAGE]);
    });

    it("the per-address limits of registration, resend and forgot-password do not lock sign-in", async () => {
      const email = await owner("flows");
      for (let i = 0; i < 11; i++) {
        const ip = `203.0.113.${100 + i}`;
        await call(() => register.action(routeArgs(formRequest("/register", registration(email)), ip)));
        await call(() => confirmEmail.action(routeArgs(formRequest("/confirm-email", { email }), ip)));
        await call(() => forgotPassword.action(routeArgs(formRequest("/forgot-password", { email }), ip)));
      }
      const ip = "203.0.113.120";
      expect(
        (await call(() => register.action(routeArgs(formRequest("/register", registration(email)), ip)))).status,
      ).toBe(429);
      expect(
        (await call(() => confirmEmail.action(routeArgs(formRequest("/confirm-email", { email }), ip)))).status,
      ).toBe(429);
      expect(
        (await call(() => forgotPassword.action(routeArgs(formRequest("/forgot-password", { email }), ip)))).status,
      ).toBe(429);
      expect((await signIn(email, PASSWORD, "198.51.100.22")).status).toBe(302);
    });
  });

  describe("no enumeration by timing", () => {
    let gate: { release: () => void; opened: Promise<void> };
    const held: MailMessage[] = [];
    beforeAll(async () => {
      // "taken" has an unconfirmed account, "known" a confirmed one.
      await call(() =>
        register.action(routeArgs(formRequest("/register", registration("taken@example.com")), "192.0.2.240")),
      );
      await call(() =>
        register.action(routeArgs(formRequest("/register", registration("known@example.com")), "192.0.2.241")),
      );
      await app.database.db.update(users).set({ emailVerified: true }).where(eq(users.email, "known@example.com"));
      await flushMail();
    });
    beforeEach(() => {
      let release = () => {};
      const opened = new Promise<void>((resolve) => (release = resolve));
      gate = { release, opened };
      held.length = 0;
      // A mailer that does not finish until the test says so: the answers must not wait for it.
      setMailer({
        send: async (message) => {
          await gate.opened;
          held.push(message);
        },
      });
    });
    afterEach(async () => {
      gate.release();
      await flushMail();
      setMailer({ send: async (message) => void app.mails.push(message) });
    });

    it.each([
      [
        "registration of a new address",
        () => ({ path: "/register", fields: registration(fresh("new")) }),
        register.action,
      ],
      [
        "registration of an address with an account",
        () => ({ path: "/register", fields: registration("taken@example.com") }),
        register.action,
      ],
      [
        "resend to an unconfirmed account",
        () => ({ path: "/confirm-email", fields: { email: "taken@example.com" } }),
        confirmEmail.action,
      ],
      [
        "forgot-password for an account",
        () => ({ path: "/forgot-password", fields: { email: "known@example.com" } }),
        forgotPassword.action,
      ],
    ] as const)(
      "%s answers before its e-mail is sent, and the e-mail then goes out",
      async (_name, request, action) => {
        const { path, fields } = request();
        const result = await call(() => (action as any)(routeArgs(formRequest(path, fields), `192.0.2.${++n % 200}`)));
        expect(result.status).toBeLessThan(400);
        expect(held).toHaveLength(0);
        await vi.waitFor(() => expect(pendingMailCount()).toBeGreaterThan(0));
        gate.release();
        await flushMail();
        expect(held.map((m) => m.to)).toEqual([fields.email]);
      },
    );

    it.each([
      [
        "registration",
        "/register",
        (email: string) => registration(email),
        register.action,
        MINIMUM_ANSWER_MS.register,
      ],
      ["resend", "/confirm-email", (email: string) => ({ email }), confirmEmail.action, MINIMUM_ANSWER_MS.resend],
      [
        "forgot-password",
        "/forgot-password",
        (email: string) => ({ email }),
        forgotPassword.action,
        MINIMUM_ANSWER_MS.forgot,
      ],
    ] as const)(
      "%s waits for the same floor whether or not the address has an account",
      async (_name, path, fields, action, floor) => {
        gate.release();
        for (const email of ["taken@example.com", "known@example.com", fresh("nobody")]) {
          floors.waited.length = 0;
          const result = await call(() =>
            (action as any)(routeArgs(formRequest(path, fields(email)), `192.0.2.${++n % 200}`)),
          );
          expect(result.status).toBeLessThan(400);
          expect(floors.waited).toEqual([floor]);
        }
      },
    );

    it("registration hashes the password for an address that already has an account too", async () => {
      gate.release();
      const email = fresh("hash");
      await call(() => register.action(routeArgs(formRequest("/register", registration(email)), "192.0.2.230")));
      hashes.count = 0;
      const again = await call(() =>
        register.action(routeArgs(formRequest("/register", registration(email)), "192.0.2.231")),
      );
      expect(again.status).toBe(302);
      expect(hashes.count).toBe(1);
    });
  });
});
