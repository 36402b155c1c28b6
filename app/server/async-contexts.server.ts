import { AsyncLocalStorage } from "node:async_hooks";

// Node 20's AsyncLocalStorage (decision 0089): from a storage's first `run()` until every storage is
// disabled again, a hook runs for every promise the process creates, in every request, whatever it
// does. Better Auth runs its three storages (request state, endpoint context, adapter) around each of
// its calls, so one sign-in left the hook on for the life of the process: signed-in pages cost up to a
// quarter more CPU after it. Its calls are counted here, and its storages are disabled once none has been in
// flight for a while; the next call turns them on again by itself (`run()` enables its storage).

/** Where Better Auth keeps its storages, shared by every copy of it in the process. */
const BETTER_AUTH_GLOBAL = Symbol.for("better-auth:global");
/** How long Better Auth's storages stay on after its last call ended. */
export const AUTH_IDLE_MS = 1_000;

let inFlight = 0;
let release: ReturnType<typeof setTimeout> | null = null;

/** Runs one call into Better Auth, counted, so that its storages stay on while any call is in flight. */
export async function trackAuthCall<T>(call: () => Promise<T>): Promise<T> {
  inFlight++;
  if (release) clearTimeout(release);
  release = null;
  try {
    return await call();
  } finally {
    inFlight--;
    if (inFlight === 0) {
      release = setTimeout(() => {
        release = null;
        if (inFlight === 0) releaseAuthStorages();
      }, AUTH_IDLE_MS);
      release.unref();
    }
  }
}

/** Better Auth's storages, from where it keeps them for every copy of itself in the process. */
export function authStorages(): AsyncLocalStorage<unknown>[] {
  const shared = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[BETTER_AUTH_GLOBAL];
  return Object.values(shared?.context ?? {}).filter((value) => value instanceof AsyncLocalStorage);
}

/** Disables Better Auth's storages (each enables itself again at its next use); how many there were. */
export function releaseAuthStorages(): number {
  const storages = authStorages();
  for (const storage of storages) storage.disable();
  return storages.length;
}

/** Whether a storage is on (its hook runs for every new promise): Node 20 says so in its `enabled` field. */
export function storageOn(storage: AsyncLocalStorage<unknown>): boolean {
  return (storage as unknown as { enabled?: unknown }).enabled === true;
}

/**
 * Better Auth's instance with every call through `api` and `handler` counted (`trackAuthCall`): the
 * same object, its `api` behind a proxy that wraps each endpoint when called.
 */
export function withTrackedCalls<A extends { api: object; handler: (request: Request) => Promise<Response> }>(
  auth: A,
): A {
  const wrapped = new Map<PropertyKey, unknown>();
  const api = new Proxy(auth.api, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      if (!wrapped.has(key)) {
        const endpoint = value as (...args: unknown[]) => Promise<unknown>;
        wrapped.set(key, (...args: unknown[]) => trackAuthCall(() => endpoint.apply(target, args)));
      }
      return wrapped.get(key);
    },
  });
  const handler = auth.handler;
  return Object.assign(auth, { api, handler: (request: Request) => trackAuthCall(() => handler(request)) });
}
