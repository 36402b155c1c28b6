import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const routesDir = path.resolve(__dirname, "../../../app/routes");
const pages = fs
  .readdirSync(routesDir)
  .filter(
    (file) =>
      file.endsWith(".tsx") && fs.readFileSync(path.join(routesDir, file), "utf8").includes("export const meta"),
  );

describe("every page title carries the configured product name (PRODUCT_NAME)", () => {
  it("finds the pages", () => {
    expect(pages.length).toBeGreaterThanOrEqual(19);
  });

  it.each(pages)("%s", async (file) => {
    const route = (await import(path.join(routesDir, file))) as { meta: (args: unknown) => { title?: string }[] };
    const matches = [{ id: "root", data: { publicConfig: { productName: "Acme Forge" } } }];
    const title = route
      .meta({ matches, data: undefined, params: {}, location: { pathname: "/" } })
      .find((m) => m.title)?.title;
    expect(title).toContain("Acme Forge");
    expect(title).not.toContain("ForgeKit");
  });
});
