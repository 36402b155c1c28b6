import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript, scratchDatabase } from "../../support/backup";
import { tempDir } from "../../support/server-process";

// `npm run backup` and `npm run restore` on PostgreSQL hand pg_dump and pg_restore the database's
// password through PGPASSWORD, never on the command line (readable by any user in /proc/<pid>/cmdline).
// The tools on PATH here write down their arguments and PGPASSWORD, then run the real ones. (On the
// embedded database no tool is spawned: the backup comes from the running site.)

const PASSWORD = "S3cret-pw/42";
const postgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

postgres("backup and restore keep the password off the command line (postgres)", () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  /** A bin directory whose pg_dump/pg_restore log their argv and PGPASSWORD to `log`, then run the real tool. */
  const loggingTools = () => {
    const bin = tempDir("fk-pgtools-");
    cleanup.push(() => fs.rmSync(bin, { recursive: true, force: true }));
    const log = path.join(bin, "calls.log");
    for (const tool of ["pg_dump", "pg_restore"]) {
      const real = process.env
        .PATH!.split(":")
        .map((dir) => path.join(dir, tool))
        .find((file) => fs.existsSync(file))!;
      const script = `#!/bin/sh\nprintf 'argv %s\\n' "$*" >> '${log}'\nprintf 'PGPASSWORD %s\\n' "$PGPASSWORD" >> '${log}'\nexec '${real}' "$@"\n`;
      fs.writeFileSync(path.join(bin, tool), script, { mode: 0o755 });
    }
    return { bin, log };
  };
  /** A scratch database's address with a password (the test server trusts local connections, so it is not checked). */
  const withPassword = async (prefix: string) => {
    const db = await scratchDatabase(prefix);
    cleanup.push(db.drop);
    const url = new URL(db.url);
    url.username ||= "root";
    url.password = encodeURIComponent(PASSWORD);
    return url.toString();
  };

  it("pg_dump and pg_restore get no password in their arguments, and it in PGPASSWORD", async () => {
    const { bin, log } = loggingTools();
    const env = (url: string, dataDir: string) => ({
      PATH: `${bin}:${process.env.PATH}`,
      DATABASE_URL: url,
      DATA_DIR: dataDir,
    });
    const out = tempDir("fk-pgpw-out-");
    const [source, target] = [tempDir("fk-pgpw-src-"), tempDir("fk-pgpw-dst-")];
    cleanup.push(() => [out, source, target].forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
    const backup = runScript("backup", [out], env(await withPassword("pgpw_src"), source));
    expect(backup.status, backup.output).toBe(0);
    const archive = path.join(out, fs.readdirSync(out)[0]!);
    const restore = runScript("restore", [archive], env(await withPassword("pgpw_dst"), target));
    expect(restore.status, restore.output).toBe(0);

    const lines = fs.readFileSync(log, "utf8").trim().split("\n");
    const calls = lines.filter((line) => line.startsWith("argv ") && line.includes("--dbname="));
    expect(calls.some((line) => line.includes("--format=custom"))).toBe(true);
    expect(calls.some((line) => line.includes("--exit-on-error"))).toBe(true);
    for (const line of calls) {
      expect(line).not.toContain("S3cret");
      expect(line).not.toContain(encodeURIComponent(PASSWORD));
    }
    const passwords = lines.filter((line) => line.startsWith("PGPASSWORD "));
    expect(passwords).toContain(`PGPASSWORD ${PASSWORD}`);
  });
});
