import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEAT_FOLLOWS_BILLING, SEAT_KEEPS_OWN } from "~/server/teams/seat-follow.server";

const MIGRATIONS = path.join(import.meta.dirname, "../../../drizzle");

/** The columns the newest definition of the seat-follow trigger's function sets, from the migrations. */
function triggerColumns(): string[] {
  const definitions = fs
    .readdirSync(MIGRATIONS)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .flatMap((file) => {
      const sql = fs.readFileSync(path.join(MIGRATIONS, file), "utf8");
      const match = /FUNCTION team_seats_follow_billing\(\)[\s\S]*?UPDATE licenses SET([\s\S]*?)WHERE/i.exec(sql);
      return match ? [match[1]!] : [];
    });
  const latest = definitions.at(-1) ?? "";
  return [...latest.matchAll(/^\s*([a-z_]+)\s*=/gm)].map((m) => m[1]!);
}

/**
 * A team's seats follow their subscription's license through a database trigger that names each
 * column (docs/architecture.md): the list in app/server/teams/seat-follow.server.ts is what it copies, and every
 * other column is one a seat keeps (the compiler refuses a license column in neither list).
 */
describe("the columns a team's seats follow", () => {
  it("are exactly those the newest trigger definition in the migrations sets", () => {
    expect(triggerColumns().sort()).toEqual([...SEAT_FOLLOWS_BILLING].sort());
  });

  it("and the columns seats keep are not also followed", () => {
    const followed = new Set<string>(SEAT_FOLLOWS_BILLING);
    expect(SEAT_KEEPS_OWN.filter((column) => followed.has(column))).toEqual([]);
  });
});
