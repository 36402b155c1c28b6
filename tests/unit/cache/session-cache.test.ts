import { afterEach, describe, expect, it } from "vitest";
import {
  cachedSession,
  forgetAllSessions,
  forgetSessionsOf,
  rememberSession,
  sessionCacheGeneration,
  sessionCacheSize,
  setSessionCacheEnabled,
} from "~/server/cache/session-cache.server";

const dana = {
  user: { id: "u1", email: "dana@example.com", fullName: "Dana", emailVerified: true },
  role: "user" as const,
  twoFactorEnabled: false,
  runsTeam: false,
};
const avery = {
  user: { id: "u2", email: "avery@example.com", fullName: "Avery", emailVerified: true },
  role: "admin" as const,
  twoFactorEnabled: true,
  runsTeam: true,
};
const NOW = 1_000_000;

describe("the session cache", () => {
  afterEach(() => setSessionCacheEnabled(false));

  it("remembers nothing and answers nothing while it is off (no change listener)", () => {
    setSessionCacheEnabled(false);
    rememberSession("t1.sig", sessionCacheGeneration(), dana, NOW + 10_000, NOW);
    expect(cachedSession("t1.sig", NOW)).toBeNull();
    expect(sessionCacheSize()).toBe(0);
  });

  it("answers a remembered session until it is due (refresh or expiry) and at most a minute", () => {
    setSessionCacheEnabled(true);
    rememberSession("t1.sig", sessionCacheGeneration(), dana, NOW + 10_000, NOW);
    rememberSession("t2.sig", sessionCacheGeneration(), avery, NOW + 3_600_000, NOW);
    expect(cachedSession("t1.sig", NOW + 9_999)).toEqual(expect.objectContaining(dana));
    expect(cachedSession("t1.sig", NOW + 10_000)).toBeNull();
    expect(cachedSession("t2.sig", NOW + 59_999)?.role).toBe("admin");
    expect(cachedSession("t2.sig", NOW + 60_000)).toBeNull();
    expect(cachedSession("other.sig", NOW)).toBeNull();
  });

  it("forgets every session of a user whose sessions or account changed, and only theirs", () => {
    setSessionCacheEnabled(true);
    const since = sessionCacheGeneration();
    rememberSession("a.sig", since, dana, NOW + 10_000, NOW);
    rememberSession("b.sig", since, dana, NOW + 10_000, NOW);
    rememberSession("c.sig", since, avery, NOW + 10_000, NOW);
    forgetSessionsOf("u1");
    expect(cachedSession("a.sig", NOW)).toBeNull();
    expect(cachedSession("b.sig", NOW)).toBeNull();
    expect(cachedSession("c.sig", NOW)).not.toBeNull();
    forgetAllSessions();
    expect(cachedSession("c.sig", NOW)).toBeNull();
  });

  it("does not keep a lookup that overlapped a change (it may have read the old state)", () => {
    setSessionCacheEnabled(true);
    const since = sessionCacheGeneration();
    forgetSessionsOf("u1"); // a sign-out heard while the lookup was in the database
    rememberSession("a.sig", since, dana, NOW + 10_000, NOW);
    expect(cachedSession("a.sig", NOW)).toBeNull();
  });

  it("turning it off or on forgets everything", () => {
    setSessionCacheEnabled(true);
    rememberSession("a.sig", sessionCacheGeneration(), dana, NOW + 10_000, NOW);
    setSessionCacheEnabled(true);
    expect(sessionCacheSize()).toBe(0);
  });
});
