import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/voice.md: the three legal documents are names, capitalised wherever a page or an e-mail shows them
// ("see the Refund Policy"), also inside a sentence or a link. Comments may speak of them as things.

const root = path.resolve(import.meta.dirname, "../../..");
const LOWER_CASE_NAME = /\b(terms of service|privacy policy|refund policy)\b/;

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|tsx)$/.test(file))
    .map((file) => path.join(folder, file));
}

/** The file's lines without comments (block, JSDoc and line comments). */
function codeLines(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ""))
    .split("\n")
    .map((line) => line.replace(/(^|\s)\/\/.*$/, ""));
}

describe("the legal documents are named as names", () => {
  it("no page, component or e-mail writes them in lower case", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("server")];
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      codeLines(fs.readFileSync(path.join(root, file), "utf8")).flatMap((line, index) =>
        LOWER_CASE_NAME.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
      ),
    );
    expect(offenders).toEqual([]);
  });
});
