import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/server/db/client.server";
import { getDb, setDatabase } from "~/server/db/db.server";

// The embedded PGlite has one connection; inside `db.transaction` the transaction holds it, so a query
// through getDb() there used to wait for ever (team removal and the e-mail change links both did).
// getDb() now refuses at once, with a message saying what to do instead.
describe("getDb() inside an open transaction of the embedded database", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ memory: true });
    setDatabase(handle);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await handle.close();
  });

  it("is refused inside the callback, with what to use instead, and the transaction rolls back", async () => {
    await getDb().execute(sql`create table guard_probe (n int)`);
    const attempt = getDb().transaction(async (tx) => {
      await tx.execute(sql`insert into guard_probe values (1)`);
      await getDb().execute(sql`select 1`);
    });
    await expect(attempt).rejects.toThrow("getDb() inside an open transaction of the embedded database");
    const count = await getDb().execute(sql`select count(*)::int as n from guard_probe`);
    expect(count).toMatchObject({ rows: [{ n: 0 }] });
  });

  it("is allowed before, after, and in work the callback started that runs once the transaction ended", async () => {
    let later: Promise<unknown> = Promise.resolve();
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => getDb().execute(sql`select 2 as two`));
    });
    await expect(later).resolves.toMatchObject({ rows: [{ two: 2 }] });
    await expect(getDb().execute(sql`select 3 as three`)).resolves.toMatchObject({ rows: [{ three: 3 }] });
  });

  it("a savepoint inside the transaction is still the transaction's: getDb() stays refused there", async () => {
    const attempt = getDb().transaction(async (tx) => {
      await tx.transaction(async () => {
        getDb();
      });
    });
    await expect(attempt).rejects.toThrow("use the transaction's handle");
  });
});
