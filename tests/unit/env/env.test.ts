import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { EnvError, SECRET_NAMES, parseEnv, publicConfig } from "~/server/env.server";
import { PADDLE_SANDBOX_IN_PRODUCTION, paymentsLabel, paymentsWarning } from "~/server/payments-label.server";

const signingKey = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const publicKeyPem = () => generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString();

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "fk-env-"));
const production = {
  NODE_ENV: "production",
  BETTER_AUTH_SECRET: "p".repeat(32),
  LICENSE_SECRET: "l".repeat(32),
  LICENSE_SALT: "salt-salt",
  LICENSE_SIGNING_KEY: signingKey(),
  PUBLIC_URL: "https://www.example.com",
  PAYMENT_PROVIDER: "paddle",
  PADDLE_ENVIRONMENT: "production",
  PADDLE_CLIENT_TOKEN: "live_client_token",
  PADDLE_API_KEY: "pdl_live_apikey",
  PADDLE_WEBHOOK_SECRET: "pdl_ntfset_secret",
  SMTP_URL: "smtps://user:pass@mail.example.com",
};

function problems(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration: embedded mode", () => {
  it("has a default for everything", () => {
    const env = parseEnv({ DATA_DIR: tmp() });
    expect(env.embedded).toBe(true);
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("127.0.0.1");
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
    expect(env.PAYMENT_PROVIDER).toBe("demo");
    expect(env.PRODUCT_NAME).toBe("ForgeKit");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_RATE_LIMIT).toBe(10);
  });

  it("generates the missing secrets once under DATA_DIR and reuses them", () => {
    const dir = tmp();
    const first = parseEnv({ DATA_DIR: dir });
    const second = parseEnv({ DATA_DIR: dir });
    for (const name of SECRET_NAMES) {
      expect(first[name].length).toBeGreaterThanOrEqual(32);
      expect(second[name]).toBe(first[name]);
    }
    expect(first.generatedSecrets).toEqual([...SECRET_NAMES]);
    expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(parseEnv({ DATA_DIR: tmp() }).LICENSE_SECRET).not.toBe(first.LICENSE_SECRET);
  });

  it("uses given secrets instead of generated ones", () => {
    const env = parseEnv({ DATA_DIR: tmp(), LICENSE_SECRET: "given-secret-value" });
    expect(env.LICENSE_SECRET).toBe("given-secret-value");
    expect(env.generatedSecrets).not.toContain("LICENSE_SECRET");
  });
});

describe("configuration: production", () => {
  it("starts with its required variables", () => {
    const env = parseEnv({ ...production, DATA_DIR: tmp() });
    expect(env.embedded).toBe(false);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.generatedSecrets).toEqual(["DEMO_WEBHOOK_SECRET"]);
  });

  it.each(["BETTER_AUTH_SECRET", "LICENSE_SECRET", "LICENSE_SALT", "PUBLIC_URL"])(
    "stops without %s, naming it",
    (name) => {
      const source: Record<string, string> = { ...production, DATA_DIR: tmp() };
      delete source[name];
      expect(problems(source)).toEqual([`${name} is required in production`]);
    },
  );

  it("requires the Paddle keys with PAYMENT_PROVIDER=paddle", () => {
    const { PADDLE_CLIENT_TOKEN: _t, PADDLE_API_KEY: _k, PADDLE_WEBHOOK_SECRET: _s, ...withoutKeys } = production;
    const found = problems({ ...withoutKeys, DATA_DIR: tmp() });
    expect(found).toEqual([
      "PADDLE_CLIENT_TOKEN is required when PAYMENT_PROVIDER=paddle",
      "PADDLE_API_KEY is required when PAYMENT_PROVIDER=paddle",
      "PADDLE_WEBHOOK_SECRET is required when PAYMENT_PROVIDER=paddle",
    ]);
  });
});

describe("configuration: production names its Paddle environment", () => {
  const { PADDLE_ENVIRONMENT: _e, ...unnamed } = production;

  it("stops without PADDLE_ENVIRONMENT when PAYMENT_PROVIDER=paddle, naming it and its two values", () => {
    const found = problems({ ...unnamed, DATA_DIR: tmp() });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^PADDLE_ENVIRONMENT is required when PAYMENT_PROVIDER=paddle in production/);
    expect(found[0]).toContain("production");
    expect(found[0]).toContain("sandbox");
    expect(problems({ ...unnamed, DATA_DIR: tmp(), PADDLE_ENVIRONMENT: "live" })[0]).toMatch(/^PADDLE_ENVIRONMENT /);
  });

  it("takes either value when named; the banner and /readyz label say which, sandbox with a warning", () => {
    for (const name of ["production", "sandbox"] as const) {
      const env = parseEnv({ ...production, DATA_DIR: tmp(), PADDLE_ENVIRONMENT: name });
      expect(env.PADDLE_ENVIRONMENT).toBe(name);
      expect(paymentsLabel(env)).toBe(`paddle (${name})`);
      expect(paymentsWarning(env)).toBe(name === "sandbox" ? PADDLE_SANDBOX_IN_PRODUCTION : null);
    }
  });

  it("is not asked for with the demo checkout or in embedded mode, where it stays sandbox", () => {
    const { PAYMENT_PROVIDER: _p, ...demo } = unnamed;
    const staging = parseEnv({ ...demo, DATA_DIR: tmp(), PAYMENT_PROVIDER: "demo", ALLOW_DEMO_PAYMENTS: "true" });
    expect([paymentsLabel(staging), paymentsWarning(staging)]).toEqual(["demo", null]);
    const embedded = parseEnv({ DATA_DIR: tmp(), PAYMENT_PROVIDER: "paddle" });
    expect([embedded.PADDLE_ENVIRONMENT, paymentsWarning(embedded)]).toEqual(["sandbox", null]);
  });
});

describe("configuration: production never gives licenses away or loses e-mail by accident", () => {
  const { PAYMENT_PROVIDER: _p, ...withoutProvider } = production;

  it("refuses to start without PAYMENT_PROVIDER (the demo checkout would be live), naming what is missing", () => {
    const found = problems({ ...withoutProvider, DATA_DIR: tmp() });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^PAYMENT_PROVIDER must be paddle in production/);
    expect(found[0]).toContain("PADDLE_API_KEY");
    expect(found[0]).toContain("ALLOW_DEMO_PAYMENTS=true");
  });

  it("refuses PAYMENT_PROVIDER=demo unless ALLOW_DEMO_PAYMENTS says so by name", () => {
    expect(problems({ ...withoutProvider, DATA_DIR: tmp(), PAYMENT_PROVIDER: "demo" })[0]).toMatch(
      /^PAYMENT_PROVIDER /,
    );
    expect(
      problems({ ...withoutProvider, DATA_DIR: tmp(), PAYMENT_PROVIDER: "demo", ALLOW_DEMO_PAYMENTS: "false" }),
    ).toHaveLength(1);
    const staging = parseEnv({
      ...withoutProvider,
      DATA_DIR: tmp(),
      PAYMENT_PROVIDER: "demo",
      ALLOW_DEMO_PAYMENTS: "true",
    });
    expect(staging.PAYMENT_PROVIDER).toBe("demo");
    expect(staging.ALLOW_DEMO_PAYMENTS).toBe(true);
  });

  it("refuses to start without SMTP_URL unless EMAIL_DISABLED says so by name", () => {
    const { SMTP_URL: _m, ...withoutSmtp } = production;
    const found = problems({ ...withoutSmtp, DATA_DIR: tmp() });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^SMTP_URL is required in production/);
    expect(found[0]).toContain("EMAIL_DISABLED=true");
    expect(parseEnv({ ...withoutSmtp, DATA_DIR: tmp(), EMAIL_DISABLED: "true" }).EMAIL_DISABLED).toBe(true);
  });

  it("names every missing piece at once", () => {
    const { SMTP_URL: _m, ...bare } = withoutProvider;
    expect(problems({ ...bare, DATA_DIR: tmp() }).map((p) => p.split(" ")[0])).toEqual([
      "PAYMENT_PROVIDER",
      "SMTP_URL",
    ]);
  });

  it("accepts only an explicit yes for the opt-in switches", () => {
    const found = problems({ ...production, DATA_DIR: tmp(), ALLOW_DEMO_PAYMENTS: "yes please" });
    expect(found[0]).toMatch(/^ALLOW_DEMO_PAYMENTS /);
  });

  it("embedded mode needs neither switch", () => {
    const env = parseEnv({ DATA_DIR: tmp() });
    expect(env.ALLOW_DEMO_PAYMENTS).toBe(false);
    expect(env.EMAIL_DISABLED).toBe(false);
    expect(env.PAYMENT_PROVIDER).toBe("demo");
  });
});

describe("configuration: production rules follow SITE_MODE, else the NODE_ENV the site started with", () => {
  it("SITE_MODE=production applies production rules whatever NODE_ENV is", () => {
    const { NODE_ENV: _n, ...rest } = production;
    expect(parseEnv({ ...rest, SITE_MODE: "production", DATA_DIR: tmp() }).embedded).toBe(false);
    expect(problems({ SITE_MODE: "production", NODE_ENV: "development", DATA_DIR: tmp() })).toContain(
      "PUBLIC_URL is required in production",
    );
  });

  it("SITE_MODE=embedded keeps embedded defaults with NODE_ENV=production (what server.js sets for React)", () => {
    const env = parseEnv({ SITE_MODE: "embedded", NODE_ENV: "production", DATA_DIR: tmp() });
    expect(env.embedded).toBe(true);
    expect(env.generatedSecrets.length).toBeGreaterThan(0);
  });

  it("refuses any other SITE_MODE", () => {
    expect(problems({ SITE_MODE: "staging", DATA_DIR: tmp() })[0]).toMatch(/^SITE_MODE /);
  });
});

describe("configuration: the desktop API's signing keys", () => {
  it("embedded mode generates an Ed25519 signing key once and keeps it", () => {
    const dir = tmp();
    const first = parseEnv({ DATA_DIR: dir });
    expect(first.LICENSE_SIGNING_KEY).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(parseEnv({ DATA_DIR: dir }).LICENSE_SIGNING_KEY).toBe(first.LICENSE_SIGNING_KEY);
  });

  it("takes a PEM given in one line with \\n for its newlines", () => {
    const pem = signingKey();
    const env = parseEnv({ ...production, DATA_DIR: tmp(), LICENSE_SIGNING_KEY: pem.replace(/\n/g, "\\n") });
    expect(env.LICENSE_SIGNING_KEY).toBe(pem);
  });

  it("refuses a key that is not an Ed25519 private key, naming the variable", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    for (const bad of [rsa, "not a key at all, but long enough", publicKeyPem()]) {
      expect(problems({ ...production, DATA_DIR: tmp(), LICENSE_SIGNING_KEY: bad })[0]).toMatch(
        /^LICENSE_SIGNING_KEY must be an Ed25519 private key/,
      );
    }
  });

  it("publishes extra public keys for rotation; each must be an Ed25519 public key", () => {
    const two = publicKeyPem() + publicKeyPem();
    expect(parseEnv({ DATA_DIR: tmp(), LICENSE_PUBLISHED_KEYS: two }).LICENSE_PUBLISHED_KEYS).toBe(two.trim());
    expect(problems({ DATA_DIR: tmp(), LICENSE_PUBLISHED_KEYS: "garbage" })[0]).toMatch(/^LICENSE_PUBLISHED_KEYS /);
  });

  it("limits the API per client IP, 120 a minute unless configured", () => {
    expect(parseEnv({ DATA_DIR: tmp() }).API_RATE_LIMIT).toBe(120);
    expect(parseEnv({ DATA_DIR: tmp(), API_RATE_LIMIT: "5000" }).API_RATE_LIMIT).toBe(5000);
  });

  it("never shows the signing key to the browser", () => {
    const env = parseEnv({ ...production, DATA_DIR: tmp() });
    expect(JSON.stringify(publicConfig(env))).not.toContain("PRIVATE KEY");
  });
});

describe("configuration: malformed values are named", () => {
  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["SMTP_URL", "http://mail.example.com"],
    ["SUPPORT_EMAIL", "not-an-address"],
    ["PUBLIC_URL", "www.example.com"],
    ["PAYMENT_PROVIDER", "stripe"],
    ["BETTER_AUTH_SECRET", "short"],
  ])("%s=%s", (name, value) => {
    const found = problems({ DATA_DIR: tmp(), [name]: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${name} `));
  });
});

describe("public configuration", () => {
  it("holds no secret", () => {
    const env = parseEnv({
      ...production,
      DATA_DIR: tmp(),
      PADDLE_CLIENT_TOKEN: "test_client_token",
      PADDLE_API_KEY: "pdl_secret_api_key_value",
      PADDLE_WEBHOOK_SECRET: "pdl_ntfset_secret_value",
      SMTP_URL: "smtps://user:mail-password@mail.example.com",
      DATABASE_URL: "postgres://u:db-password@db.example.com/x",
    });
    const exposed = JSON.stringify(publicConfig(env));
    for (const secret of [
      env.BETTER_AUTH_SECRET,
      env.LICENSE_SECRET,
      env.LICENSE_SALT,
      env.DEMO_WEBHOOK_SECRET,
      "pdl_secret_api_key_value",
      "pdl_ntfset_secret_value",
      "mail-password",
      "db-password",
    ]) {
      expect(exposed).not.toContain(secret);
    }
    expect(publicConfig(env).paddleClientToken).toBe("test_client_token");
  });
});
