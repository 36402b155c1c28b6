import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resetAuth } from "~/server/auth/auth.server";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { openDatabase, type DatabaseHandle } from "~/server/db/client.server";
import { setDatabase } from "~/server/db/db.server";
import { JOB_DEFINITIONS } from "~/server/jobs/definitions.server";
import { startJobs, stopJobs, type JobDefinitions } from "~/server/jobs/jobs.server";
import { parseEnv, setEnv, type Env } from "~/server/env.server";
import { setMailer, type MailMessage } from "~/server/mail/mailer.server";
import { flushMail } from "~/server/mail/outbox.server";
import { profiles, user_roles, users } from "~/server/db/schema";
import { enrolWithSecret } from "~/server/auth/two-factor.server";
import { migratedPgliteDump, migratedPostgresTemplate, pgliteDumpAt, postgresTemplateAt } from "./migrated-template";
import { appliedBefore } from "./migrations";
import { createScratchDatabase } from "./scratch";

/** The two-factor secret (base32) of admins made by createUser. */
export const TEST_ADMIN_TOTP_SECRET = "TESTADMINTOTPSECRET2345672345672";

export type EngineName = "pglite" | "postgres";

/**
 * What makes a file run on PGlite even when PostgreSQL is there: the engine-specific part it tests
 * (the embedded engine's jobs, listener, rate limits, data directory, backups, migrations).
 */
export interface EngineChoice {
  pglite: "always";
  because: string;
}

/**
 * The engines an integration test file runs on (decision 0053). With PostgreSQL reachable
 * (TEST_DATABASE_URL set, as in CI) a file runs on PostgreSQL only, the production engine, unless it
 * says `testEngines({ pglite: "always", because: "…" })`: then on both. Without PostgreSQL,
 * everything runs on PGlite.
 */
export function testEngines(choice?: EngineChoice): EngineName[] {
  if (!process.env.TEST_DATABASE_URL) return ["pglite"];
  return choice?.pglite === "always" ? ["pglite", "postgres"] : ["postgres"];
}

export interface TestApp {
  env: Env;
  database: DatabaseHandle;
  /** E-mails the app sent, oldest first. */
  mails: MailMessage[];
  close: () => Promise<void>;
}

/**
 * A fresh, migrated database on the given engine, wired into the server modules
 * (configuration, database, auth, a mailer that records what it sends).
 */
export async function startTestApp(
  engine: EngineName,
  envOverrides: Record<string, string> = {},
  options: {
    migrationsFolder?: string;
    /**
     * Start from a copy of the database as it was before this migration (one of EARLIER_STATES in
     * migrated-template.ts), migrated no further: the test writes old rows, then calls migrate().
     */
    before?: string;
    /** Job kinds besides the app's; jobs run only when the test calls drainJobs() unless `work`. */
    jobs?: JobDefinitions;
    work?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fk-it-"));
  const env = parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", ...envOverrides });
  setEnv(env);
  let dropDatabase = async () => {};
  let database: DatabaseHandle;
  // A copy of the migrated template (decision 0053), or of an earlier state's, unless the test brings
  // its own migrations.
  const earlier = options.before === undefined ? undefined : appliedBefore(options.before);
  const fromTemplate = !options.migrationsFolder;
  if (engine === "postgres") {
    const base = process.env.TEST_DATABASE_URL!;
    const template =
      earlier !== undefined
        ? await postgresTemplateAt(base, earlier)
        : fromTemplate
          ? await migratedPostgresTemplate(base)
          : undefined;
    const scratch = await createScratchDatabase(base, "test", template);
    database = await openDatabase({ url: scratch.url, maxConnections: 5 });
    dropDatabase = scratch.drop;
  } else {
    const dump =
      earlier !== undefined ? await pgliteDumpAt(earlier) : fromTemplate ? await migratedPgliteDump() : undefined;
    database = await openDatabase({ memory: true, loadDataDir: dump });
  }
  // Finds nothing to apply on a template's copy; applies a custom folder's migrations for real.
  if (earlier === undefined) await database.migrate(options.migrationsFolder);
  setDatabase(database);
  resetAuth();
  setPaymentProvider(undefined);
  await startJobs(database, { definitions: { ...JOB_DEFINITIONS, ...options.jobs }, work: options.work ?? false });
  const mails: MailMessage[] = [];
  setMailer({ send: async (message) => void mails.push(message) });
  return {
    env,
    database,
    mails,
    close: async () => {
      // A job still running gets up to 10 s (no wait when none is): in a worker shared with the next
      // file, one outliving the stop would fail against this closed database in that file's run.
      await stopJobs({ timeoutMs: 10_000 });
      await flushMail();
      setMailer(undefined);
      setDatabase(undefined);
      setPaymentProvider(undefined);
      resetAuth();
      await database.close();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first link in an e-mail's text. */
export function linkIn(mail: MailMessage | undefined): string {
  const match = mail?.text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in e-mail: ${mail?.subject}`);
  return match[0];
}

/** A confirmed account with its profile and role row, created directly in the database. */
export async function createUser(
  db: DatabaseHandle["db"],
  email: string,
  { role = "user", fullName = "Test User" }: { role?: "user" | "admin"; fullName?: string } = {},
): Promise<{ id: string; email: string }> {
  const [user] = await db
    .insert(users)
    .values({ email, name: fullName, emailVerified: true })
    .returning({ id: users.id });
  await db.insert(profiles).values({ id: user!.id, full_name: fullName });
  await db.insert(user_roles).values({ user_id: user!.id, role });
  // Admins must have two-factor on (requireAdmin); enrolled with TEST_ADMIN_TOTP_SECRET.
  if (role === "admin") await enrolWithSecret(db, user!.id, TEST_ADMIN_TOTP_SECRET);
  return { id: user!.id, email };
}
