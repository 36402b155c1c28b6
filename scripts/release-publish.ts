// npm run release:publish -- --version 2.5.0-beta.1 --file installer.zip --channel beta
//   [--download-url https://…] [--title "…"] [--note "…" …] [--draft]
//   [--rollout 10] [--critical] [--minimum-version 2.3.0]
// What a CI job runs after building the installer (decision 0039): computes the file's size and SHA-256
// and adds the release through POST /api/v1/releases with the API token in FORGEKIT_API_TOKEN (scope
// releases:write) at FORGEKIT_API_URL (default http://localhost:3000). Published unless --draft; to
// --rollout percent of machines (decision 0062; 100 when not given), --critical, with --minimum-version.
// Exit 0 and the stored release printed as JSON; 1 when the site refused (its error and field); 2 on
// wrong arguments.
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { parseArgs } from "node:util";

const USAGE =
  "Usage: npm run release:publish -- --version <version> --file <installer.zip> [--channel stable|beta] " +
  "[--download-url <https://…>] [--title <title>] [--note <text> …] [--draft] " +
  "[--rollout <0-100>] [--critical] [--minimum-version <version>]\n" +
  "Environment: FORGEKIT_API_TOKEN (required), FORGEKIT_API_URL (default http://localhost:3000).";

interface Options {
  version: string;
  file: string;
  channel: string;
  downloadUrl: string | undefined;
  title: string | undefined;
  notes: string[];
  draft: boolean;
  rollout: number | undefined;
  critical: boolean;
  minimumVersion: string | undefined;
}

function readOptions(argv: string[]): Options | null {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        version: { type: "string" },
        file: { type: "string" },
        channel: { type: "string", default: "stable" },
        "download-url": { type: "string" },
        title: { type: "string" },
        note: { type: "string", multiple: true },
        draft: { type: "boolean", default: false },
        rollout: { type: "string" },
        critical: { type: "boolean", default: false },
        "minimum-version": { type: "string" },
      },
      strict: true,
    });
    if (!values.version || !values.file) return null;
    return {
      version: values.version,
      file: values.file,
      channel: values.channel!,
      downloadUrl: values["download-url"],
      title: values.title,
      notes: values.note?.length ? values.note : [`Version ${values.version}.`],
      draft: values.draft!,
      // Sent as given: the site refuses anything but a whole number from 0 to 100 (rollout_out_of_range).
      rollout: values.rollout === undefined ? undefined : Number(values.rollout),
      critical: values.critical!,
      minimumVersion: values["minimum-version"],
    };
  } catch {
    return null;
  }
}

/** The file's size in bytes and SHA-256 (lowercase hex), read once as a stream. */
async function fileDigest(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { size: statSync(file).size, sha256: hash.digest("hex") };
}

async function main() {
  const options = readOptions(process.argv.slice(2));
  if (!options) {
    console.error(USAGE);
    process.exit(2);
  }
  const token = process.env.FORGEKIT_API_TOKEN?.trim();
  if (!token) {
    console.error(`FORGEKIT_API_TOKEN is not set.\n${USAGE}`);
    process.exit(2);
  }
  let digest: { size: number; sha256: string };
  try {
    digest = await fileDigest(options.file);
  } catch {
    console.error(`Cannot read ${options.file}.`);
    process.exit(2);
  }
  const api = (process.env.FORGEKIT_API_URL?.trim() || "http://localhost:3000").replace(/\/+$/, "");
  const response = await fetch(`${api}/api/v1/releases`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      version: options.version,
      title: options.title ?? null,
      notes: options.notes,
      channel: options.channel,
      download_url: options.downloadUrl ?? null,
      size: digest.size,
      sha256: digest.sha256,
      published: !options.draft,
      ...(options.rollout === undefined ? {} : { rollout: options.rollout }),
      critical: options.critical,
      minimum_version: options.minimumVersion ?? null,
    }),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    release?: unknown;
    error?: string;
    field?: string;
    code?: string;
  };
  if (response.status !== 201) {
    const field = answer.field ? ` (${answer.field}${answer.code ? `, ${answer.code}` : ""})` : "";
    console.error(
      `The site refused the release: HTTP ${response.status}${field}: ${answer.error ?? "no reason given"}`,
    );
    process.exit(1);
  }
  console.log(JSON.stringify(answer.release, null, 2));
}

await main();
