import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The repository stands on its own: a maintainer who clones it has nothing beside it, so no
// file may send them to the product brief's folder next to the clone; the README is the front door.

const root = path.resolve(import.meta.dirname, "../../..");
// Written in two parts so that this file does not mention it itself.
const OUTSIDE_FOLDER = ["..", "shared"].join("/");
// The product brief's files, which only a reader of that folder has: say the rule, or cite docs/.
const BRIEF_FILES = new RegExp(`\\b(${["spec", "DESIGN", "STYLE", "PADDLE"].join("|")})\\.md\\b`);
// "issue" and a number: a pointer into a tracker the clone does not have (the code's comments are held to it
// by eslint's local/no-tracker-issue-numbers; this covers the rest: docs, the README, SQL, configuration).
const TRACKER_ISSUE = /\bissues? #?\d+/i;
// Migrations already applied are history and stay as they were written.
const APPLIED_MIGRATIONS = /^drizzle\/00(1[2-9]|2\d|3[01])_[a-z_]+\.sql$/;
const README_MAX_LINE = 160;
const README_COMMANDS = ["npm install && npm start", "npm test"];

/** Every file git tracks or would add (untracked but not ignored), relative to the root. */
function repositoryFiles(): string[] {
  const output = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return output.split("\0").filter((file) => file !== "" && fs.existsSync(path.join(root, file)));
}

describe("the repository stands on its own", () => {
  it(`no file mentions ${OUTSIDE_FOLDER}`, () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((file) => {
      const full = path.join(root, file);
      if (!fs.statSync(full).isFile()) return false;
      return fs.readFileSync(full).includes(OUTSIDE_FOLDER);
    });
    expect(offenders).toEqual([]);
  });

  it("no file names the product brief's files", () => {
    const offenders = repositoryFiles().filter((file) => {
      const full = path.join(root, file);
      return fs.statSync(full).isFile() && BRIEF_FILES.test(fs.readFileSync(full, "latin1"));
    });
    expect(offenders).toEqual([]);
  });

  it("no file points at an issue number of a tracker outside the repository", () => {
    const offenders = repositoryFiles().filter((file) => {
      const full = path.join(root, file);
      if (file === "package-lock.json" || APPLIED_MIGRATIONS.test(file) || !fs.statSync(full).isFile()) return false;
      return TRACKER_ISSUE.test(fs.readFileSync(full, "latin1"));
    });
    expect(offenders).toEqual([]);
  });

  it("every repository path a doc names in backticks exists", () => {
    const docs = fs.readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md"));
    const folders = new Set(repositoryFiles().flatMap((file) => (file.includes("/") ? [file.split("/")[0]!] : [])));
    const missing = docs.flatMap((name) =>
      namedPaths(fs.readFileSync(path.join(root, "docs", name), "utf8"), folders)
        .filter((named) => !fs.existsSync(path.join(root, named)))
        .map((named) => `docs/${name}: ${named}`),
    );
    expect(docs.length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});

/**
 * The paths in backticks that start with one of the repository's own folders (`app/…`, `tests/…`), less
 * patterns and placeholders (`*`, `<id>`, `{…}`, `NNNN`) and what git ignores (`data/`, `bench/results/…`).
 */
function namedPaths(markdown: string, folders: Set<string>): string[] {
  const named = [...markdown.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!.replace(/(:\d+(-\d+)?|#.*)$/, ""))
    .filter((text) => text.includes("/") && folders.has(text.split("/")[0]!) && !/[*<>{}]|NNNN/.test(text));
  const unique = [...new Set(named)];
  if (unique.length === 0) return [];
  // git check-ignore prints the ignored ones (and exits 1 when there are none).
  const ignored = spawnSync("git", ["check-ignore", "--no-index", "--stdin"], {
    cwd: root,
    encoding: "utf8",
    input: unique.join("\n"),
  }).stdout.split("\n");
  return unique.filter((text) => !ignored.includes(text));
}

describe("README.md", () => {
  const lines = fs.readFileSync(path.join(root, "README.md"), "utf8").split("\n");

  it(`has no line over ${README_MAX_LINE} characters`, () => {
    const long = lines.flatMap((line, index) =>
      line.length > README_MAX_LINE ? [`${index + 1}: ${line.length}`] : [],
    );
    expect(long).toEqual([]);
  });

  it("starts with the two commands in one shell block", () => {
    const title = lines.findIndex((line) => line.startsWith("# "));
    const block = lines.findIndex((line) => line.startsWith("```"));
    expect(title).toBe(0);
    // Nothing but blank lines between the title and the block.
    expect(lines.slice(1, block).every((line) => line.trim() === "")).toBe(true);
    expect(lines[block]).toBe("```sh");
    const commands = lines
      .slice(block + 1, block + 1 + README_COMMANDS.length)
      .map((line) => line.split("#")[0]!.trim());
    expect(commands).toEqual(README_COMMANDS);
  });
});

describe("decision records", () => {
  const dir = path.join(root, "docs/decisions");
  const records = fs.readdirSync(dir).filter((name) => /^\d{4}-.+\.md$/.test(name) && !name.startsWith("0000-"));
  const index = fs.readFileSync(path.join(dir, "README.md"), "utf8");
  // The one spelling of a status (docs/decisions/README.md).
  const STATUS = /^- Status: (accepted|accepted, partly superseded by \d{4}|superseded by \d{4})$/m;

  it("spell their status one way and carry their number in the title", () => {
    expect(records.length).toBeGreaterThan(20);
    const wrong = records.filter((name) => {
      const text = fs.readFileSync(path.join(dir, name), "utf8");
      const title = new RegExp(`^# ${Number(name.slice(0, 4))}\\. \\S`);
      return !STATUS.test(text) || !title.test(text) || text.match(/^- Status:/gm)?.length !== 1;
    });
    expect(wrong).toEqual([]);
  });

  it("each have one line in the index, with the record's own status", () => {
    const missing = records.filter((name) => {
      const status = STATUS.exec(fs.readFileSync(path.join(dir, name), "utf8"))![1]!;
      const lines = index.split("\n").filter((line) => line.startsWith(`- [${name.slice(0, 4)}](${name})`));
      return lines.length !== 1 || !lines[0]!.endsWith(`— ${status}`);
    });
    expect(missing).toEqual([]);
  });
});
