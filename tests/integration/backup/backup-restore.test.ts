import { generateKeyPairSync, verify } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, migrationsFolder } from "~/server/db/client.server";
import { takeBackup } from "../../../server/backup-socket";
import { appliedMigrations, runScript, scratchDatabase } from "../../support/backup";
import { migratedPostgresTemplate, pgliteDumpAt, postgresTemplateAt } from "../../support/migrated-template";
import { rawRequest, signIn } from "../../support/raw-http";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { testEngines } from "../../support/test-app";

const ENGINES = testEngines({
  pglite: "always",
  because: "backup and restore differ by engine (a data-directory dump on PGlite)",
});

// `npm run backup` while the site runs and `npm run restore` into an empty data directory or
// database: the restored site keeps every session, license key and signature. Ports 4370/4371.
const PORT_SOURCE = 4370;
const PORT_RESTORED = 4371;
const DEMO = { email: "demo@forgekit.example", password: "user-demo-1" };
const BACKUP_NAME = /^forgekit-backup-.+-with-secrets\.tar\.gz$/;
const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

interface LicenseFile {
  kid: string;
  payload: string;
  signature: string;
}
type PublishedKey = { kid: string; public_key_pem: string };

const get = (port: number, url: string, cookie?: string) =>
  rawRequest({ port, method: "GET", path: url, headers: cookie ? { Cookie: cookie } : {} });
const json = async (port: number, url: string, body?: object) => {
  const answer = await rawRequest({
    port,
    path: url,
    method: body ? "POST" : "GET",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
};
const sessionOnly = (cookie: string) =>
  cookie
    .split("; ")
    .filter((c) => c.includes("session_token"))
    .join("; ");
const verifies = (file: LicenseFile, keys: PublishedKey[]) => {
  const key = keys.find((k) => k.kid === file.kid);
  return (
    key !== undefined &&
    verify(null, Buffer.from(file.payload, "ascii"), key.public_key_pem, Buffer.from(file.signature, "base64"))
  );
};

/** What the restored site must still honour: a session cookie, a valid license key, a license file and its key. */
async function snapshot(port: number) {
  const cookie = sessionOnly(await signIn(port, DEMO.email, DEMO.password));
  const page = await get(port, "/licenses", cookie);
  expect(page.status).toBe(200);
  // License keys (IV:ciphertext, base64) in the page's data.
  const keys = [...new Set([...page.body.matchAll(/[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]+={0,2}/g)].map((m) => m[0]))];
  let licenseKey = "";
  for (const key of keys) {
    const answer = await json(port, "/api/v1/licenses/validate", { key, nonce: "backup-test-nonce" });
    if (answer.body.code === "VALID") licenseKey = key;
  }
  expect(licenseKey).not.toBe("");
  const file = await json(port, `/api/v1/licenses/file?key=${encodeURIComponent(licenseKey)}`);
  expect(file.status).toBe(200);
  const published = (await json(port, "/api/v1/keys")).body.keys as PublishedKey[];
  return { cookie, licenseKey, file: file.body as unknown as LicenseFile, published };
}

describe.each(ENGINES)("backup and restore on %s", (engine) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  const servers: ServerProcess[] = [];
  /**
   * A data directory and, on PostgreSQL, a fresh database: where a site runs or a backup is restored.
   * An empty one, or on PostgreSQL a copy of `template` (a site's start then migrates nothing).
   */
  const target = async (prefix: string, template?: (base: string) => Promise<string>) => {
    const dataDir = tempDir(`fk-${prefix}-`);
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (engine === "postgres") {
      const db = await scratchDatabase(prefix, template && (await template(process.env.TEST_DATABASE_URL!)));
      cleanup.push(db.drop);
      env.DATABASE_URL = db.url;
    }
    return { dataDir, env };
  };
  const start = async (port: number, where: { dataDir: string; env: Record<string, string> }) => {
    const server = await startServer({ port, dataDir: where.dataDir, env: { ...where.env, AUTH_RATE_LIMIT: "1000" } });
    servers.push(server);
    return server;
  };
  const backupIn = (dir: string) => fs.readdirSync(dir).find((name) => BACKUP_NAME.test(name));
  const migrationsOf = async (where: { dataDir: string; env: Record<string, string> }) => {
    const database = await openDatabase({ url: where.env.DATABASE_URL, dataDir: where.dataDir });
    try {
      return await appliedMigrations((text) => database.db.execute(text) as never);
    } finally {
      await database.close();
    }
  };

  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const step of cleanup.reverse()) await step();
  });

  describe("a backup taken while the site runs", () => {
    let before: Awaited<ReturnType<typeof snapshot>>;
    let restored: ServerProcess;
    let restoredTo: { dataDir: string; env: Record<string, string> };
    let archive = "";

    beforeAll(async () => {
      // On PGlite the site starts on a copy of the migrated database (startServer), here likewise.
      const source = await target("bk-src", migratedPostgresTemplate);
      const site = await start(PORT_SOURCE, source);
      before = await snapshot(PORT_SOURCE);
      const out = tempDir("fk-bk-out-");
      cleanup.push(() => fs.rmSync(out, { recursive: true, force: true }));
      const backup = runScript("backup", [out], source.env);
      expect(backup.status, backup.output).toBe(0);
      archive = path.join(out, backupIn(out)!);
      // The site kept serving while the backup was taken.
      expect((await get(PORT_SOURCE, "/licenses", before.cookie)).status).toBe(200);
      await site.stop();
      restoredTo = await target("bk-dst");
      const restore = runScript("restore", [archive], restoredTo.env);
      expect(restore.status, restore.output).toBe(0);
      restored = await start(PORT_RESTORED, restoredTo);
    }, 300_000);

    it("is one file named as holding the secrets, readable by its owner only", () => {
      expect(path.basename(archive)).toMatch(BACKUP_NAME);
      expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    });

    it("restores a site where the session cookie, the license key and license files work as before", async () => {
      const page = await get(PORT_RESTORED, "/licenses", before.cookie);
      expect(page.status).toBe(200);
      expect(page.body).toContain("Your licenses");
      const answer = await json(PORT_RESTORED, "/api/v1/licenses/validate", {
        key: before.licenseKey,
        nonce: "after-restore-nonce",
      });
      expect(answer.body).toMatchObject({ valid: true, code: "VALID" });
      const published = (await json(PORT_RESTORED, "/api/v1/keys")).body.keys as PublishedKey[];
      expect(published).toEqual(before.published);
      // The file issued before verifies with the restored site's key; a new one with the old key.
      expect(verifies(before.file, published)).toBe(true);
      const file = await json(PORT_RESTORED, `/api/v1/licenses/file?key=${encodeURIComponent(before.licenseKey)}`);
      expect(verifies(file.body as unknown as LicenseFile, before.published)).toBe(true);
    });

    it("refuses to restore over a data directory or database in use, unless --force", async () => {
      await restored.stop();
      const again = runScript("restore", [archive], restoredTo.env);
      expect(again.status).toBe(2);
      expect(again.output).toMatch(/--force/);
      const forced = runScript("restore", [archive, "--force"], restoredTo.env);
      expect(forced.status, forced.output).toBe(0);
      expect(await migrationsOf(restoredTo)).toBe(journal.entries.length);
    });

    it("refuses a file that is not a backup with a clear message", () => {
      const junk = path.join(path.dirname(archive), "junk-with-secrets.tar.gz");
      fs.writeFileSync(junk, "not an archive");
      const result = runScript("restore", [junk], { DATA_DIR: tempDir("fk-bk-junk-") });
      expect(result.status).toBe(2);
      expect(result.output).toMatch(/not a backup archive/);
    });
  });

  it("restores a backup older than the code, which migrates forward on start", async () => {
    // The database as the code of two migrations ago left it: a copy the migrated template's build kept.
    const behind = journal.entries.length - 2;
    const older = await target("bk-old", (base) => postgresTemplateAt(base, behind));
    let file = path.join(tempDir("fk-bk-old-out-"), `older${engine === "postgres" ? "" : "-with-secrets.tar.gz"}`);
    if (engine === "pglite") {
      // No site can run on an older schema (it migrates at start): the dump the site would take.
      const database = await openDatabase({ dataDir: older.dataDir, loadDataDir: await pgliteDumpAt(behind) });
      try {
        expect(await appliedMigrations((text) => database.db.execute(text) as never)).toBe(behind);
        fs.writeFileSync(file, await takeBackup(database.pglite!, older.dataDir));
      } finally {
        await database.close();
      }
    } else {
      const backup = runScript("backup", [file], older.env);
      expect(backup.status, backup.output).toBe(0);
      file = `${file}-with-secrets.tar.gz`;
    }
    const into = await target("bk-old-dst");
    const restore = runScript("restore", [file], into.env);
    expect(restore.status, restore.output).toBe(0);
    expect(await migrationsOf(into)).toBe(behind);
    const site = await start(PORT_RESTORED, into);
    expect((await get(PORT_RESTORED, "/readyz")).status).toBe(200);
    await site.stop();
    expect(await migrationsOf(into)).toBe(journal.entries.length);
  }, 300_000);
});

describe("npm run backup with nothing to back up", () => {
  it("says the embedded database is backed up through the running site", () => {
    const result = runScript("backup", [tempDir("fk-bk-none-")], { DATA_DIR: tempDir("fk-bk-nosite-") });
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/No running site answers/);
  });
});

describe("production on the embedded database", () => {
  it("logs at start that it is single-instance and where the backup command is", async () => {
    const dataDir = tempDir("fk-bk-prod-");
    const site = await startServer({
      port: PORT_SOURCE,
      dataDir,
      env: {
        NODE_ENV: "production",
        BETTER_AUTH_SECRET: "b".repeat(32),
        LICENSE_SECRET: "l".repeat(32),
        LICENSE_SALT: "salt-salt",
        LICENSE_SIGNING_KEY: generateKeyPairSync("ed25519")
          .privateKey.export({ type: "pkcs8", format: "pem" })
          .toString(),
        ALLOW_DEMO_PAYMENTS: "true",
        EMAIL_DISABLED: "true",
      },
    });
    try {
      expect(site.output()).toMatch(/one instance only; back it up while it runs with npm run backup -- <file>/);
    } finally {
      await site.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
