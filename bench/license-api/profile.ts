// Reads the CPU profile `node --cpu-prof` wrote for the license API bench (BENCH_CPU_PROF=<dir>) and
// prints where the site's time went: self time by function and by file or package, the idle time
// left out of the shares (decision 0051 was found this way).
import fs from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A file's short name: the package for node_modules, the path inside the repository otherwise. */
function where(url: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  return url.replace(/^file:\/\/.*?\/(build[^/]*\/|server\/|app\/)/, "$1") || "(native)";
}

function top(totals: Map<string, number>, busy: number, count: number): string[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]) => `    ${((100 * time) / busy).toFixed(1).padStart(5)}%  ${name}`);
}

/** Prints the newest profile in `dir`: the top functions and files by self time, as shares of the busy time. */
export function printProfile(dir: string, count = 25): void {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  const newest = files.map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!newest) return void console.log(`  no CPU profile in ${dir}`);
  const profile = JSON.parse(fs.readFileSync(newest, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const time = profile.timeDeltas[i] ?? 0;
    if (functionName === "(idle)") return;
    busy += time;
    const fn = `${functionName || "(anonymous)"} ${where(url)}${url ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + time);
    byFile.set(where(url), (byFile.get(where(url)) ?? 0) + time);
  });
  console.log(
    `  CPU profile ${newest}: ${(busy / 1000).toFixed(0)} ms busy (start-up included); self time by function:`,
  );
  console.log(top(byFunction, busy, count).join("\n"));
  console.log("  by file or package:");
  console.log(top(byFile, busy, 12).join("\n"));
}
