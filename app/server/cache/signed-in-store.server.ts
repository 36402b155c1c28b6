import type { Entry } from "./signed-in-answers.server";

/** A session's latest answers kept (its pages, their data requests, a few admin tabs). */
const MAX_ANSWERS_PER_SESSION = 8;
/** Users whose last change is remembered to the tick; beyond, every render in flight is dropped once. */
const MAX_TRACKED_CHANGES = 10_000;

/**
 * The signed-in page cache's memory: the answers by key, indexed by user, by session and by whether
 * they show other users' data, within a byte budget (oldest forgotten first).
 */
export function createAnswerStore({
  now,
  maxBytes,
  sweepEveryMs,
}: {
  now: () => number;
  maxBytes: number;
  /** Expired answers are dropped this often, not only when memory runs short. */
  sweepEveryMs: number;
}) {
  const entries = new Map<string, Entry>();
  const keysOfUser = new Map<string, Set<string>>();
  const keysOfSession = new Map<string, string[]>();
  const sharedKeys = new Set<string>();
  let bytes = 0;
  let lastSweep = now();

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    sharedKeys.delete(key);
    bytes -= entry.bytes;
    const keys = keysOfUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) keysOfUser.delete(entry.userId);
    const ofSession = keysOfSession.get(entry.token);
    if (ofSession) {
      const at = ofSession.indexOf(key);
      if (at !== -1) ofSession.splice(at, 1);
      if (ofSession.length === 0) keysOfSession.delete(entry.token);
    }
  };

  const sweep = () => {
    const at = now();
    if (at - lastSweep < sweepEveryMs) return;
    lastSweep = at;
    for (const [key, entry] of entries) if (entry.validUntil <= at) remove(key);
  };

  /** Keeps an answer in place of its key's: a session keeps its few latest; the cache its latest within its memory. */
  const keep = (entry: Entry) => {
    sweep();
    remove(entry.key);
    if (entry.bytes > maxBytes) return;
    const ofSession = keysOfSession.get(entry.token) ?? [];
    while (ofSession.length >= MAX_ANSWERS_PER_SESSION) remove(ofSession[0]!);
    while (bytes + entry.bytes > maxBytes) remove(entries.keys().next().value!);
    entries.set(entry.key, entry);
    if (entry.shared) sharedKeys.add(entry.key);
    bytes += entry.bytes;
    const keys = keysOfUser.get(entry.userId) ?? new Set<string>();
    keys.add(entry.key);
    keysOfUser.set(entry.userId, keys);
    ofSession.push(entry.key);
    keysOfSession.set(entry.token, ofSession);
  };

  return {
    get: (key: string) => entries.get(key),
    remove,
    keep,
    removeUser: (userId: string) => {
      for (const key of keysOfUser.get(userId) ?? []) remove(key);
    },
    removeShared: () => {
      for (const key of sharedKeys) remove(key);
    },
    clear: () => {
      entries.clear();
      keysOfUser.clear();
      keysOfSession.clear();
      sharedKeys.clear();
      bytes = 0;
    },
    size: () => entries.size,
  };
}

/**
 * The order of changes: a page rendered while something it shows changed may show the old state and
 * is not kept. Changes are numbered by `tick`; a render remembers the tick it started at.
 */
export function createChangeClock() {
  let tick = 0;
  const userChangedAt = new Map<string, number>();
  /** Users' change ticks forgotten (to bound the map) are taken to be at most this recent. */
  let forgottenChangesUpTo = 0;
  let sharedChangedAt = 0;
  let everythingChangedAt = 0;
  return {
    tick: () => tick,
    sharedChanged: () => {
      sharedChangedAt = ++tick;
    },
    userChanged: (userId: string) => {
      if (userChangedAt.size >= MAX_TRACKED_CHANGES) {
        forgottenChangesUpTo = tick;
        userChangedAt.clear();
      }
      userChangedAt.set(userId, ++tick);
    },
    everythingChanged: () => {
      everythingChangedAt = ++tick;
    },
    /** Nothing a render that started at `startedAt` shows (its user's data; others' if shared) changed since. */
    unchangedSince: (startedAt: number, userId: string, shared: boolean) =>
      everythingChangedAt <= startedAt &&
      (userChangedAt.get(userId) ?? forgottenChangesUpTo) <= startedAt &&
      (!shared || sharedChangedAt <= startedAt),
  };
}
