import { afterEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/server/db/client.server";
import { preparedPerDatabase, setDatabase } from "~/server/db/db.server";

const handleOf = (db: object) => ({ db: db as Database }) as DatabaseHandle;

describe("preparedPerDatabase: a signed-in page's query is built once per database, not at every view", () => {
  afterEach(() => setDatabase(undefined));

  it("builds the query on first use and hands the same one back on every later call", () => {
    const built: object[] = [];
    const query = preparedPerDatabase((db) => {
      built.push(db);
      return { db };
    });
    const db = {};
    setDatabase(handleOf(db));
    const first = query();
    expect(query()).toBe(first);
    expect(query()).toBe(first);
    expect(built).toEqual([db]);
  });

  it("builds it again for another database (a test's own, a restored one), never handing one database's to another", () => {
    const query = preparedPerDatabase((db) => ({ db }));
    const one = {};
    const other = {};
    setDatabase(handleOf(one));
    expect(query().db).toBe(one);
    setDatabase(handleOf(other));
    expect(query().db).toBe(other);
    setDatabase(handleOf(one));
    expect(query().db).toBe(one);
  });

  it("refuses before the database is open, as getDb does", () => {
    const query = preparedPerDatabase((db) => ({ db }));
    expect(() => query()).toThrow("The database is not open yet");
  });
});
