import pg from "pg";
import { startServer, tempDir, type ServerProcess } from "../support/server-process";

/**
 * The site one Playwright worker tests (decision 0063): the built server (`node server.js` on
 * BUILD_DIR, default build-test/) on a port and database of its own, seeded with the demo data as
 * `npm start` seeds it. Workers never share a site, so the spec files of two workers cannot see
 * each other's changes and the suite runs side by side on both cores.
 *
 * On PostgreSQL when TEST_DATABASE_URL names a server (a fresh database `fk_e2e_<port>`, dropped
 * first: a native PostgreSQL answers in processes of its own, where the embedded PGlite shares the
 * site's one thread); else the embedded PGlite in a fresh data directory.
 */
export interface WorkerSite extends ServerProcess {
  /** The site's data directory: the demo secrets some specs read (secrets.json). */
  dataDir: string;
}

/** Worker n's port: E2E_PORT (4300) + 2n; the port after it is free for a spec's own second site. */
export function workerPort(parallelIndex: number): number {
  return Number(process.env.E2E_PORT ?? 4300) + 2 * parallelIndex;
}

/** What every site under test runs with, beyond the embedded defaults. */
export const SITE_ENV: Record<string, string> = {
  LOG_LEVEL: "warn",
  // Many sign-ins from one address in a few minutes; the limits are proven in the integration suite.
  AUTH_RATE_LIMIT: "1000",
  // The download page shows the winget command only with a package id.
  WINGET_PACKAGE_ID: "ForgeKit.ForgeKit",
  // The seller the demo invoices name (decision 0040): legal name, address lines and tax id.
  SELLER_NAME: "ForgeKit Software Ltd",
  SELLER_ADDRESS: "1 Forge Lane | Leeds LS1 1AA | United Kingdom",
  SELLER_TAX_ID: "GB123456789",
};

async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href;
}

/** Starts worker `parallelIndex`'s site and waits until it answers /healthz. */
export async function startWorkerSite(parallelIndex: number): Promise<WorkerSite> {
  const port = workerPort(parallelIndex);
  const dataDir = tempDir("fk-e2e-");
  const server = process.env.TEST_DATABASE_URL;
  const env = { ...SITE_ENV, ...(server ? { DATABASE_URL: await freshDatabase(server, `fk_e2e_${port}`) } : {}) };
  const site = await startServer({ port, dataDir, env });
  return { ...site, dataDir };
}
