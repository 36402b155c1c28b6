import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH_IDLE_MS, authStorages, storageOn } from "~/server/async-contexts.server";
import { transactionStorageOn } from "~/server/db/client.server";
import { getDb } from "~/server/db/db.server";
import { testEngines } from "../../support/test-app";
import { accountsApp } from "../../support/accounts-app";

// Decision 0089: a sign-in runs Better Auth's async storages (and embedded transactions run ours); once
// nothing needs them, they are off again, and with them Node's hook on every promise of the process.
/** Better Auth's storages: at least one on. */
const authStoragesOn = () => authStorages().some(storageOn);
const idle = { timeout: AUTH_IDLE_MS * 4, interval: 50 };

describe.each(testEngines())("async storages after Better Auth's calls on %s", (engine) => {
  const { startApp, stopApp, signIn } = accountsApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  it("are on during and just after a sign-in, and off once it has been idle", async () => {
    const signedIn = await signIn("demo@forgekit.example", "user-demo-1");
    expect(signedIn.status).toBe(302);
    expect(authStorages().length).toBeGreaterThan(0);
    expect(authStoragesOn()).toBe(true);
    await vi.waitFor(() => expect(authStoragesOn()).toBe(false), idle);
    // Signing in again works as before and turns them on again.
    expect((await signIn("demo@forgekit.example", "user-demo-1")).status).toBe(302);
    expect(authStoragesOn()).toBe(true);
    await vi.waitFor(() => expect(authStoragesOn()).toBe(false), idle);
  });

  it("the embedded database's is on while a transaction is underway, and off as soon as none is", async () => {
    const seen: boolean[] = [];
    const probe = (n: number) =>
      getDb().transaction(async (tx) => {
        seen.push(transactionStorageOn());
        await tx.execute(sql`select ${n}::int`);
        return n;
      });
    expect(await Promise.all([probe(1), probe(2)])).toEqual([1, 2]);
    // PostgreSQL's transactions need no guard: the storage is never used there.
    expect(seen).toEqual(engine === "pglite" ? [true, true] : [false, false]);
    expect(transactionStorageOn()).toBe(false);
  });
});
