import type { AddressInfo } from "node:net";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCaches, type Caches } from "~/server/cache/caches.server";
import { getLogger } from "~/server/logger.server";
import { readiness } from "../../../server/health";
import { freePort } from "../../support/scratch";
import { send, startLiveServer, type LiveServer } from "../../support/live-server";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const ENGINES = testEngines({
  pglite: "always",
  because: "the readiness answer names the embedded listener on PGlite",
});

const cookies = { sessionToken: "fk.session_token", sessionData: "fk.session_data" };

describe.each(ENGINES)("/readyz on %s", { timeout: 180_000 }, (engine) => {
  let server: LiveServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("reports the change listener and the dev mailbox besides the database and the jobs", async () => {
    server = await startLiveServer(engine);
    const answer = await send(server, "GET", "/readyz");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      status: "ready",
      database: engine,
      mode: "embedded",
      jobs: { ok: true },
      listener: engine === "postgres" ? "listening" : "embedded",
      mailer: "demo mailbox",
    });
  });
});

describe.each(ENGINES)("readiness of the listener and the mailer on %s", { timeout: 180_000 }, (engine) => {
  let smtp: SMTPServer;
  let smtpPort = 0;
  let app: TestApp | undefined;
  let caches: Caches | undefined;
  beforeAll(async () => {
    smtp = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"] });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  afterEach(async () => {
    await caches?.close();
    caches = undefined;
    await app?.close();
    app = undefined;
  });

  const open = async (env: Record<string, string> = {}) => {
    app = await startTestApp(engine, env);
    caches = await createCaches({
      databaseUrl: app.database.url,
      database: app.database,
      cookies,
      logger: getLogger(),
    });
    return { app, caches };
  };

  it("an SMTP server that answers is ok; one that does not is down, reported without making the site unready", async () => {
    const up = await open({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
    const ready = await readiness(up.app.env, up.app.database, up.caches);
    expect(ready).toMatchObject({ ready: true, body: { status: "ready", mailer: "ok" } });
    await caches!.close();
    caches = undefined;
    await app!.close();
    const down = await open({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    const unready = await readiness(down.app.env, down.app.database, down.caches);
    expect(unready).toMatchObject({ ready: true, parts: { mailer: false }, body: { status: "ready", mailer: "down" } });
  });
});

// PostgreSQL only: the embedded engine has no LISTEN connection to lose.
describe.each(testEngines().filter((e) => e === "postgres"))(
  "the change listener on %s",
  { timeout: 180_000 },
  (engine) => {
    let app: TestApp | undefined;
    let caches: Caches | undefined;
    afterEach(async () => {
      await caches?.close();
      caches = undefined;
      await app?.close();
      app = undefined;
    });

    const open = async () => {
      app = await startTestApp(engine);
      caches = await createCaches({
        databaseUrl: app.database.url,
        database: app.database,
        cookies,
        logger: getLogger(),
      });
      return { app, caches };
    };

    it("a lost LISTEN connection makes the instance unready until it is back", async () => {
      const { app: opened, caches: listening } = await open();
      expect((await readiness(opened.env, opened.database, listening)).body).toMatchObject({ listener: "listening" });
      const admin = new pg.Client({ connectionString: opened.database.url });
      await admin.connect();
      try {
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`,
        );
      } finally {
        await admin.end();
      }
      const seen: string[] = [];
      for (let i = 0; i < 100 && !(seen.includes("down") && seen.at(-1) === "listening"); i++) {
        const state = await readiness(opened.env, opened.database, listening);
        const listener = String(state.body.listener);
        if (seen.at(-1) !== listener) seen.push(listener);
        if (listener === "down") expect(state).toMatchObject({ ready: false, body: { status: "unavailable" } });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toContain("down");
      expect(seen.at(-1)).toBe("listening");
    });
  },
);
