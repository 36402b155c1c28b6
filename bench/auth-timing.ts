// Account enumeration by timing (decision 0014): how long register, resend confirmation
// and forgot-password take for an address that has an account and for one that has none, through
// the route actions on the embedded database, once with the dev mailbox and once with SMTP (a local
// smtp-server). Each request is timed alone: the e-mail it queued is sent before the next one starts.
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { hashPassword } from "better-auth/crypto";
import { SMTPServer } from "smtp-server";
import * as confirmEmail from "../app/routes/confirm-email";
import * as forgotPassword from "../app/routes/forgot-password";
import * as register from "../app/routes/register";
import { resetAuth } from "../app/server/auth/auth.server";
import { openDatabase } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { accounts, profiles, user_roles, users } from "../app/server/db/schema";
import { parseEnv, setEnv } from "../app/server/env.server";
import { setMailer } from "../app/server/mail/mailer.server";
import { flushMail } from "../app/server/mail/outbox.server";
import { formRequest, routeArgs } from "../tests/support/route-call";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const WARMUP = 5;

type Action = (args: unknown) => Promise<unknown>;
interface Flow {
  name: string;
  action: Action;
  path: string;
  /** The form for the address with an account, and for a fresh address with none. */
  existing: (i: number) => Record<string, string>;
  fresh: (i: number) => Record<string, string>;
}

const PASSWORD = "bench-pass-1";
const registerForm = (email: string) => ({
  full_name: "Bench User",
  email,
  password: PASSWORD,
  company_name: "",
  terms: "on",
});
const flows: Flow[] = [
  {
    name: "register",
    action: register.action as Action,
    path: "/register",
    existing: () => registerForm("known@example.com"),
    fresh: (i) => registerForm(`new-${i}-${Date.now()}@example.com`),
  },
  {
    name: "resend confirmation",
    action: confirmEmail.action as Action,
    path: "/confirm-email",
    existing: () => ({ email: "pending@example.com" }),
    fresh: (i) => ({ email: `nobody-${i}@example.com` }),
  },
  {
    name: "forgot password",
    action: forgotPassword.action as Action,
    path: "/forgot-password",
    existing: () => ({ email: "known@example.com" }),
    fresh: (i) => ({ email: `nobody-${i}@example.com` }),
  },
];

let ip = 0;
async function timeOne(flow: Flow, form: Record<string, string>): Promise<number> {
  const request = formRequest(flow.path, form);
  const client = `10.${(++ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
  const started = performance.now();
  const result = await flow.action(routeArgs(request, client)).catch((thrown: unknown) => thrown);
  const elapsed = performance.now() - started;
  const status =
    result instanceof Response ? result.status : ((result as { init?: { status?: number } })?.init?.status ?? 200);
  if (status >= 400) throw new Error(`${flow.name}: status ${status}`);
  await flushMail();
  return elapsed;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function createAccount(email: string, verified: boolean) {
  const db = (await import("../app/server/db/db.server")).getDb();
  const [user] = await db
    .insert(users)
    .values({ email, name: "Bench", emailVerified: verified })
    .returning({ id: users.id });
  await db.insert(accounts).values({
    accountId: user!.id,
    providerId: "credential",
    userId: user!.id,
    password: await hashPassword(PASSWORD),
  });
  await db.insert(profiles).values({ id: user!.id, full_name: "Bench" });
  await db.insert(user_roles).values({ user_id: user!.id, role: "user" });
}

async function run(label: string, envOverrides: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-auth-"));
  setEnv(
    parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, AUTH_RATE_LIMIT: "1000000", ...envOverrides }),
  );
  const database = await openDatabase({ memory: true });
  await database.migrate();
  setDatabase(database);
  resetAuth();
  setMailer(undefined);
  await createAccount("known@example.com", true);
  await createAccount("pending@example.com", false);
  console.log(`  ${label}:`);
  for (const flow of flows) {
    for (let i = 0; i < WARMUP; i++) {
      await timeOne(flow, flow.existing(-i - 1));
      await timeOne(flow, flow.fresh(-i - 1));
    }
    const existing: number[] = [];
    const fresh: number[] = [];
    // Alternate, so drift (other load, caches) touches both paths alike.
    for (let i = 0; i < ROUNDS; i++) {
      existing.push(await timeOne(flow, flow.existing(i)));
      fresh.push(await timeOne(flow, flow.fresh(i)));
    }
    existing.sort((a, b) => a - b);
    fresh.sort((a, b) => a - b);
    const median = (xs: number[]) => quantile(xs, 0.5);
    console.log(
      `    ${flow.name.padEnd(20)} address with an account: median ${fmt(median(existing))}, p90 ${fmt(quantile(existing, 0.9))}` +
        ` | without: median ${fmt(median(fresh))}, p90 ${fmt(quantile(fresh, 0.9))}` +
        ` | difference of medians ${fmt(median(existing) - median(fresh))}`,
    );
  }
  await flushMail();
  setMailer(undefined);
  setDatabase(undefined);
  resetAuth();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function main() {
  console.log(
    `auth timing (${ROUNDS} requests per path, embedded database, each e-mail sent before the next request):`,
  );
  await run("dev mailbox", {});
  let delivered = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        delivered++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  await run("SMTP (local smtp-server)", { SMTP_URL: `smtp://127.0.0.1:${port}` });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  console.log(`  (${delivered} e-mails delivered over SMTP)`);
}

await main();
