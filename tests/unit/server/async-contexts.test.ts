import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AUTH_IDLE_MS,
  authStorages,
  releaseAuthStorages,
  storageOn,
  trackAuthCall,
  withTrackedCalls,
} from "~/server/async-contexts.server";

// Decision 0089: Better Auth's storages are on while any of its calls is in flight and for AUTH_IDLE_MS
// after the last one, then off, so that Node's hook stops running for every promise of every request.
const GLOBAL = Symbol.for("better-auth:global");
type Shared = { context: Record<string, unknown> };

describe("Better Auth's async storages", () => {
  let saved: unknown;
  let storages: AsyncLocalStorage<string>[];
  beforeEach(() => {
    vi.useFakeTimers();
    saved = (globalThis as Record<symbol, unknown>)[GLOBAL];
    storages = [new AsyncLocalStorage<string>(), new AsyncLocalStorage<string>()];
    const shared: Shared = {
      context: { requestStateAsyncStorage: storages[0], endpointContextAsyncStorage: storages[1], other: {} },
    };
    (globalThis as Record<symbol, unknown>)[GLOBAL] = shared;
  });
  afterEach(() => {
    for (const storage of storages) storage.disable();
    (globalThis as Record<symbol, unknown>)[GLOBAL] = saved;
    vi.useRealTimers();
  });

  const asyncStoragesActive = () => storages.some(storageOn);

  /** A call as Better Auth makes them: its work runs inside its storages. */
  const authLikeCall = (result: string, until?: Promise<void>) =>
    trackAuthCall(() =>
      storages[0]!.run("state", () =>
        storages[1]!.run("endpoint", async () => {
          await until;
          return result;
        }),
      ),
    );

  it("stay on while a call runs and for the idle time after it, then are off", async () => {
    expect(asyncStoragesActive()).toBe(false);
    await expect(authLikeCall("signed in")).resolves.toBe("signed in");
    expect(asyncStoragesActive()).toBe(true);
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS - 1);
    expect(asyncStoragesActive()).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(asyncStoragesActive()).toBe(false);
    // The next call turns them on again by itself, and sees its own stores.
    await trackAuthCall(() => storages[0]!.run("again", async () => expect(storages[0]!.getStore()).toBe("again")));
    expect(asyncStoragesActive()).toBe(true);
  });

  it("stay on while any call is in flight, however long after another one ended", async () => {
    let finish!: () => void;
    const slow = authLikeCall("slow", new Promise<void>((resolve) => (finish = resolve)));
    await authLikeCall("quick");
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS * 5);
    expect(asyncStoragesActive()).toBe(true);
    finish();
    await expect(slow).resolves.toBe("slow");
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS);
    expect(asyncStoragesActive()).toBe(false);
  });

  it("a call begun during the idle time keeps them on for the idle time after it", async () => {
    await authLikeCall("first");
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS / 2);
    await authLikeCall("second");
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS / 2 + 1);
    expect(asyncStoragesActive()).toBe(true);
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS);
    expect(asyncStoragesActive()).toBe(false);
  });

  it("a call that fails is counted out too, and its error reaches the caller", async () => {
    await expect(
      trackAuthCall(() => storages[0]!.run("x", () => Promise.reject(new Error("refused")))),
    ).rejects.toThrow("refused");
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS);
    expect(asyncStoragesActive()).toBe(false);
  });

  it("releases only the storages it finds, and nothing when Better Auth has made none", () => {
    expect(authStorages()).toEqual(storages);
    storages[0]!.run("on", () => undefined);
    expect(releaseAuthStorages()).toBe(2);
    expect(asyncStoragesActive()).toBe(false);
    (globalThis as Record<symbol, unknown>)[GLOBAL] = undefined;
    expect(releaseAuthStorages()).toBe(0);
    expect(authStorages()).toEqual([]);
  });

  it("counts every endpoint of `api` and the handler, leaving everything else as it was", async () => {
    const auth = {
      options: { appName: "ForgeKit" },
      api: {
        path: "/api/auth",
        signInEmail: vi.fn(async (input: { body: string }) =>
          storages[0]!.run("state", async () => `hello ${input.body}`),
        ),
      },
      handler: vi.fn(async (request: Request) => storages[1]!.run("endpoint", async () => new Response(request.url))),
    };
    const tracked = withTrackedCalls(auth);
    expect(tracked.options).toEqual({ appName: "ForgeKit" });
    expect(tracked.api.path).toBe("/api/auth");
    expect(tracked.api.signInEmail).toBe(tracked.api.signInEmail);
    await expect(tracked.api.signInEmail({ body: "dana" })).resolves.toBe("hello dana");
    expect(auth.api.signInEmail).toBeDefined();
    const answer = await tracked.handler(new Request("http://localhost/api/auth/ok"));
    await expect(answer.text()).resolves.toBe("http://localhost/api/auth/ok");
    expect(asyncStoragesActive()).toBe(true);
    await vi.advanceTimersByTimeAsync(AUTH_IDLE_MS);
    expect(asyncStoragesActive()).toBe(false);
  });
});
