// npm run license:verify -- <license file | saved answer> [--keys <url | file>]
// Checks a license file ({"format":"license/1",…}) or an answer of the desktop API saved with
// `curl -si` (headers, then the exact body) against the published Ed25519 keys: by default those of
// ${PUBLIC_URL or http://localhost:PORT}/api/v1/keys, or of the URL or saved keys (JSON or PEM) given
// with --keys. Prints what it checked; exit 0 valid, 1 invalid, 2 unusable input. Node's crypto only.
import fs from "node:fs";
import { describeReport } from "./lib/describe-report";
import { isValid, verifyInput } from "./lib/license-signature";
import { parsePublishedKeys, type PublishedKey } from "./lib/published-keys";
import { LicenseVerifyError } from "./lib/verify-inputs";

const USAGE = `Usage: npm run license:verify -- <license file | saved answer (curl -si …)> [--keys <url | keys file>]
  The keys default to \${PUBLIC_URL or http://localhost:\${PORT or 3000}}/api/v1/keys.`;

function parseArgs(argv: string[]): { input: string; keys: string } | null {
  let input: string | undefined;
  let keys: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--keys") {
      keys = argv[++i];
      if (keys === undefined) return null;
    } else if (arg.startsWith("--keys=")) keys = arg.slice("--keys=".length);
    else if (arg === "-h" || arg === "--help" || input !== undefined || (arg.startsWith("-") && arg !== "-"))
      return null;
    else input = arg;
  }
  if (input === undefined) return null;
  const base = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
  return { input, keys: keys ?? `${base}/api/v1/keys` };
}

async function loadKeys(source: string): Promise<PublishedKey[]> {
  if (/^https?:\/\//i.test(source)) {
    let response: Response;
    try {
      response = await fetch(source, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      throw new LicenseVerifyError(
        `cannot fetch the keys from ${source} (${error instanceof Error ? error.message : error}); give them with --keys`,
      );
    }
    if (!response.ok) throw new LicenseVerifyError(`${source} answered ${response.status}`);
    return parsePublishedKeys(Buffer.from(await response.arrayBuffer()));
  }
  return parsePublishedKeys(fs.readFileSync(source));
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  try {
    const input = args.input === "-" ? fs.readFileSync(0) : fs.readFileSync(args.input);
    const keys = await loadKeys(args.keys);
    console.log(`keys from ${args.keys}: ${keys.map((key) => key.kid).join(", ") || "(none)"}`);
    for (const key of keys)
      if (key.kid !== key.derivedKid)
        console.log(`  warning: published kid ${key.kid} is not the key's own kid ${key.derivedKid}`);
    const report = verifyInput(input, keys);
    console.log(describeReport(report).join("\n"));
    return isValid(report) ? 0 : 1;
  } catch (error) {
    if (error instanceof LicenseVerifyError || (error as NodeJS.ErrnoException)?.code === "ENOENT") {
      console.error(`license:verify: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main();
