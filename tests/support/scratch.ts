// Scratch PostgreSQL databases and free ports, shared by the tests and the benchmarks.
// It lives in tests/support/ and bench/ imports it (as the benchmarks already import
// server-process.ts, raw-http.ts and route-call.ts from here), never the other way round: the
// tests run on every change, so the helpers they share are exercised there, while bench/ is an
// occasional tool that may lean on the test support but nothing in tests/ depends on it.
import net from "node:net";
import pg from "pg";

/** A port on 127.0.0.1 nothing listens on right now (the OS's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface ScratchDatabase {
  /** The new database's address (the server's, with the database's name as the path). */
  url: string;
  /** Drops the database, closing what is still connected to it. */
  drop: () => Promise<void>;
}

async function runOnServer(connectionString: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database named `<prefix>_<time>_<random>` on the PostgreSQL server at `base`: empty, or a
 * copy of `template` (a database nobody is connected to, such as the migrated template).
 */
export async function createScratchDatabase(base: string, prefix: string, template?: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await runOnServer(base, `create database ${name}${template ? ` template ${template}` : ""}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => runOnServer(base, `drop database if exists ${name} with (force)`) };
}

/**
 * The database a test's site runs on for an engine: on PostgreSQL a scratch database on
 * TEST_DATABASE_URL's server, given to the site as DATABASE_URL (a copy of `template` when given,
 * e.g. the migrated one); on PGlite nothing (the site keeps its embedded database in its data
 * directory) and a drop that does nothing.
 */
export async function scratchDatabaseFor(
  engine: "pglite" | "postgres",
  prefix: string,
  template?: string,
): Promise<{ url: string | undefined; env: Record<string, string>; drop: () => Promise<void> }> {
  if (engine !== "postgres") return { url: undefined, env: {}, drop: async () => {} };
  const { url, drop } = await createScratchDatabase(process.env.TEST_DATABASE_URL!, prefix, template);
  return { url, env: { DATABASE_URL: url }, drop };
}
