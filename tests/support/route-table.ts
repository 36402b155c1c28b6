import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./server-process";

/** Route paths whose module exports an action, read from app/routes.ts. */
export function actionRoutes(): string[] {
  const table = fs.readFileSync(path.join(REPO_ROOT, "app/routes.ts"), "utf8");
  const paths: string[] = [];
  for (const match of table.matchAll(/route\("([^"]+)",\s*"([^"]+)"\)|index\("([^"]+)"\)/g)) {
    const [urlPath, file] = match[3] ? ["", match[3]] : [match[1]!, match[2]!];
    const source = fs.readFileSync(path.join(REPO_ROOT, "app", file), "utf8");
    if (/export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b/.test(source)) paths.push(`/${urlPath}`);
  }
  return paths.sort();
}
