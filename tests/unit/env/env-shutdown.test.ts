import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/server/env.server";

const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "fk-shutdown-"));

function problems(values: Record<string, string>): string[] {
  try {
    parseEnv({ DATA_DIR: dataDir(), ...values });
    return [];
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
}

describe("SHUTDOWN_DELAY_SECONDS and SHUTDOWN_TIMEOUT_SECONDS (graceful shutdown, decision 0045)", () => {
  it("default to no delay and 25 seconds, and take whole seconds", () => {
    const defaults = parseEnv({ DATA_DIR: dataDir() });
    expect([defaults.SHUTDOWN_DELAY_SECONDS, defaults.SHUTDOWN_TIMEOUT_SECONDS]).toEqual([0, 25]);
    const set = parseEnv({ DATA_DIR: dataDir(), SHUTDOWN_DELAY_SECONDS: "3", SHUTDOWN_TIMEOUT_SECONDS: "0" });
    expect([set.SHUTDOWN_DELAY_SECONDS, set.SHUTDOWN_TIMEOUT_SECONDS]).toEqual([3, 0]);
  });

  it("refuses what is not a whole number of seconds in range, naming the variable", () => {
    expect(problems({ SHUTDOWN_DELAY_SECONDS: "soon" })).toEqual([
      "SHUTDOWN_DELAY_SECONDS must be a number of seconds",
    ]);
    expect(problems({ SHUTDOWN_DELAY_SECONDS: "1.5" })).toEqual([
      "SHUTDOWN_DELAY_SECONDS must be a whole number of seconds",
    ]);
    expect(problems({ SHUTDOWN_DELAY_SECONDS: "-1" })).toEqual(["SHUTDOWN_DELAY_SECONDS must be 0 or more (seconds)"]);
    expect(problems({ SHUTDOWN_DELAY_SECONDS: "121" })).toEqual([
      "SHUTDOWN_DELAY_SECONDS must be at most 120 (seconds)",
    ]);
    expect(problems({ SHUTDOWN_TIMEOUT_SECONDS: "601" })).toEqual([
      "SHUTDOWN_TIMEOUT_SECONDS must be at most 600 (seconds)",
    ]);
  });
});
