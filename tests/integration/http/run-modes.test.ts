import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../support/scratch";
import { buildDir, REPO_ROOT, startServer, tempDir, type ServerProcess } from "../../support/server-process";

// Each start migrates and seeds a fresh embedded database: over a minute on a loaded 2-core machine.
describe("run modes: React's production build in every run but npm run dev", { timeout: 180_000 }, () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("node server.js with no NODE_ENV serves the production runtime with embedded defaults", async () => {
    server = await startServer({ port: await freePort(), dataDir: tempDir("fk-mode-") });
    const ready = (await (await fetch(`${server.origin}/readyz`)).json()) as Record<string, string>;
    expect(ready).toMatchObject({ status: "ready", mode: "embedded", runtime: "production" });
    // Embedded defaults still hold: the demo seed's releases are on the download page.
    expect(await (await fetch(`${server.origin}/download`)).text()).toContain("Version");
  });

  it("SITE_MODE=embedded is kept when the operator also says NODE_ENV=production", async () => {
    server = await startServer({
      port: await freePort(),
      dataDir: tempDir("fk-mode-"),
      env: { NODE_ENV: "production", SITE_MODE: "embedded" },
    });
    const ready = (await (await fetch(`${server.origin}/readyz`)).json()) as Record<string, string>;
    expect(ready).toMatchObject({ mode: "embedded", runtime: "production" });
  });

  it("NODE_ENV=production given by the operator means production rules: it refuses to start without its configuration", async () => {
    const child = spawn(process.execPath, ["server.js"], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        BUILD_DIR: buildDir(),
        NODE_ENV: "production",
        DATA_DIR: tempDir("fk-mode-"),
        PORT: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    for (const name of ["BETTER_AUTH_SECRET", "LICENSE_SIGNING_KEY", "PUBLIC_URL", "PAYMENT_PROVIDER", "SMTP_URL"]) {
      expect(output).toContain(name);
    }
  });
});
