// The browser suite's database on PostgreSQL (playwright.config.ts): when TEST_DATABASE_URL names a
// server, the site under test gets a fresh database of its own there, named after its port, before it
// starts. A native PostgreSQL answers the server's queries in processes of its own, where the embedded
// PGlite shares the site's one thread: the suite runs faster on it. Without TEST_DATABASE_URL the site
// runs on the embedded PGlite in its data directory, as `npm start` does.
import pg from "pg";

const [serverUrl, name] = process.argv.slice(2);
if (!serverUrl || !/^[a-z0-9_]+$/.test(name ?? "")) {
  console.error("usage: node tests/e2e/fresh-database.mjs <postgres url> <database name>");
  process.exit(2);
}
const client = new pg.Client({ connectionString: serverUrl });
await client.connect();
try {
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
} finally {
  await client.end();
}
