import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "~/domain/format-date";

describe("dates in one format per context", () => {
  it("a day is 'Nov 22, 2026' in UTC, from a Date or an ISO string", () => {
    expect(formatDate("2026-11-22T23:30:00Z")).toBe("Nov 22, 2026");
    expect(formatDate(new Date(Date.UTC(2026, 0, 5)))).toBe("Jan 5, 2026");
  });

  it("a moment on a page is the day, then the UTC time", () => {
    expect(formatDateTime("2026-11-24T04:01:59.000Z")).toBe("Nov 24, 2026, 04:01 UTC");
    expect(formatDateTime(new Date(Date.UTC(2026, 11, 31, 23, 5)))).toBe("Dec 31, 2026, 23:05 UTC");
  });

  it("an unreadable moment shows nothing rather than 'Invalid Date'", () => {
    expect(formatDateTime("not a date")).toBe("");
  });
});
