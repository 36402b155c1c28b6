// How the license API bench (bench/license-api.ts) drives wrk and reads what it cost: the Lua script
// that posts validations, wrk's summary, and the CPU time processes spent (from /proc, Linux).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import type { Call } from "./seed";

/** wrk (Debian's package), installed through apt-get when missing and run as root. */
export function ensureWrk(): boolean {
  if (spawnSync("wrk", ["--version"]).error === undefined) return true;
  if (process.getuid?.() !== 0) {
    console.log("  wrk is not installed: `apt-get update && apt-get install -y wrk` as root, then run again");
    return false;
  }
  console.log("  installing wrk (apt-get)…");
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "wrk"],
  ]) {
    const result = spawnSync("apt-get", args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (result.status !== 0) {
      console.log(`  apt-get ${args.join(" ")} failed`);
      return false;
    }
  }
  return true;
}

/** wrk's summary on one line the bench reads: requests, duration, latency percentiles, errors. */
export const DONE = `function done(summary, latency, requests)
  io.write(string.format("BENCH requests=%d duration_us=%d p50_us=%d p95_us=%d p99_us=%d status_errors=%d socket_errors=%d\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`;

export function luaScript(calls: Call[]): string {
  return `-- POST /api/v1/licenses/validate, rotating over ${calls.length} keys with their machines, a fresh nonce each time
local keys = {
${calls.map((call) => `  ${JSON.stringify(call.key)},`).join("\n")}
}
local fingerprints = {
${calls.map((call) => `  ${JSON.stringify(call.fingerprint)},`).join("\n")}
}
local threads = {}
local count = 0
function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end
function init(args)
  n = id * 7919
  headers = { ["Content-Type"] = "application/json" }
end
function request()
  n = n + 1
  local at = (n % #keys) + 1
  local body = '{"key":"' .. keys[at] .. '","fingerprint":"' .. fingerprints[at] .. '","nonce":"' .. string.format("bench%04d%012d", id, n) .. '"}'
  return wrk.format("POST", "/api/v1/licenses/validate", headers, body)
end
${DONE}`;
}

export interface Figures {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  statusErrors: number;
  socketErrors: number;
}

export function runWrk(
  url: string,
  script: string,
  { seconds, threads, connections }: { seconds: number; threads: number; connections: number },
): Figures {
  const result = spawnSync(
    "wrk",
    [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url],
    { encoding: "utf8" },
  );
  const line = /BENCH (.+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || !line)
    throw new Error(`wrk failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  const value = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(line)![1]);
  return {
    requests: value("requests"),
    perSecond: value("requests") / (value("duration_us") / 1e6),
    p50: value("p50_us") / 1000,
    p95: value("p95_us") / 1000,
    p99: value("p99_us") / 1000,
    statusErrors: value("status_errors"),
    socketErrors: value("socket_errors"),
  };
}

/** Clock ticks a second in /proc (USER_HZ: 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds (user + system) each process has used so far; a process that is gone counts 0. */
export function cpuMs(pids: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // The fields after the command name (which may hold spaces) in parentheses: utime is 14th, stime 15th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      used.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      used.set(pid, 0);
    }
  }
  return used;
}

/** The CPU milliseconds used between two readings of `cpuMs`, summed over the processes. */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

export const median = (values: number[]) => percentile(values, 0.5);
