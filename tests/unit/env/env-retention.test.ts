import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/server/env.server";

const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "fk-retention-"));

function problems(value: string): string[] {
  try {
    parseEnv({ DATA_DIR: dataDir(), WEBHOOK_RETENTION_DAYS: value });
    return [];
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
}

describe("WEBHOOK_RETENTION_DAYS", () => {
  it("defaults to 90 days and takes a whole number of days", () => {
    expect(parseEnv({ DATA_DIR: dataDir() }).WEBHOOK_RETENTION_DAYS).toBe(90);
    expect(parseEnv({ DATA_DIR: dataDir(), WEBHOOK_RETENTION_DAYS: "30" }).WEBHOOK_RETENTION_DAYS).toBe(30);
  });

  it("refuses what is not a whole number of days from 7 to 3650, naming the variable", () => {
    expect(problems("abc")).toEqual(["WEBHOOK_RETENTION_DAYS must be a whole number of days"]);
    expect(problems("1.5")).toEqual(["WEBHOOK_RETENTION_DAYS must be a whole number of days"]);
    expect(problems("3")[0]).toMatch(/^WEBHOOK_RETENTION_DAYS must be at least 7/);
    expect(problems("4000")).toEqual(["WEBHOOK_RETENTION_DAYS must be at most 3650 (days)"]);
  });
});
