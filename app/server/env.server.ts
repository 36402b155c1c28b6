import type { PublicConfig } from "~/domain/views";
import { z } from "zod";
import { EnvError } from "./env-error.server";
import { productionRules, siteMode } from "./env-production-rules.server";
import { loadOrCreateSecrets, SECRET_NAMES, type SecretName } from "./env-secrets.server";
import { ed25519PrivateKey, flag, optionalString, publishedKeys, secret, urlString } from "./env-values.server";
import { paddleEnvironmentProblems } from "./payments-label.server";
import { retentionSettings } from "./env-retention.server";
import { shutdownSettings } from "./env-shutdown.server";
import { DEFAULT_MACHINE_LIMITS, machineSettings } from "./env-machines.server";
import { priceSettings } from "./env-prices.server";

/** DOWNLOAD_URL's default: the demo archive the site serves itself (releases/demo-installer.server.ts). */
export const DEMO_DOWNLOAD_PATH = "/downloads/forgekit-latest.zip";

/**
 * Configuration, read once at boot from the process environment.
 *
 * Embedded mode (SITE_MODE=embedded, the default unless the site starts with NODE_ENV=production) gives every variable a default,
 * and generates the secrets it has no value for once, under DATA_DIR, so sessions and
 * license keys survive a restart. Production requires the secrets and the public URL.
 */

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /**
     * Production rules (required secrets and payment/mail configuration, HSTS, secure cookies, no demo
     * seed) or embedded defaults. Unset, it follows the NODE_ENV the operator started the site with;
     * server.js then runs React's production build either way (only `npm run dev` does not).
     */
    SITE_MODE: z.enum(["embedded", "production"]).optional(),
    HOST: optionalString,
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: optionalString.pipe(urlString.optional()),
    DATA_DIR: z.string().trim().min(1).default("./data"),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { message: "must start with postgres:// or postgresql://" })
        .optional(),
    ),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: optionalString,
    /**
     * The request header in which a proxy in front of the site names the visitor's country (ISO 3166-1
     * alpha-2, e.g. Cloudflare's CF-IPCountry): the pricing page's prices are that country's
     * (decision 0072). Unset, the country is unknown and prices are in US dollars unless `?country=`.
     */
    COUNTRY_HEADER: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9-]+$/, { message: "must be a header name such as CF-IPCountry" })
        .optional(),
    ),
    AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    /** /metrics on the site's port, for `Authorization: Bearer <token>` only (decision 0042). */
    METRICS_TOKEN: optionalString.pipe(secret.optional()),
    /** /metrics on a listener of its own, bound to 127.0.0.1 (decision 0042). */
    METRICS_PORT: optionalString.pipe(z.coerce.number<string>().int().min(1).max(65535).optional()),
    ...retentionSettings,
    ...shutdownSettings,

    BETTER_AUTH_SECRET: optionalString.pipe(secret.optional()),
    LICENSE_SECRET: optionalString.pipe(secret.optional()),
    LICENSE_SALT: optionalString.pipe(z.string().min(8, { message: "must be at least 8 characters long" }).optional()),

    /** Ed25519 private key (PKCS#8 PEM) that signs the desktop API's answers and license files. */
    LICENSE_SIGNING_KEY: optionalString.pipe(ed25519PrivateKey.optional()),
    /** More public keys (SPKI PEM, one after another) published at /api/v1/keys without signing: key rotation. */
    LICENSE_PUBLISHED_KEYS: optionalString.pipe(publishedKeys.optional()),
    /** Desktop API requests per minute per client IP. */
    API_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
    /** Requests per minute per API token (decision 0039), on top of API_RATE_LIMIT. */
    API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
    ...machineSettings,

    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, { message: "must start with smtp:// or smtps://" })
        .optional(),
    ),
    MAIL_FROM: optionalString,
    /** Production without SMTP_URL must say so: e-mails are then kept in the database, never sent. */
    EMAIL_DISABLED: flag,

    /** Sign in with GitHub / Google: shown only when both the client id and secret are set. */
    GITHUB_CLIENT_ID: optionalString,
    GITHUB_CLIENT_SECRET: optionalString,
    GITHUB_OAUTH_URL: urlString.default("https://github.com"),
    GITHUB_API_URL: urlString.default("https://api.github.com"),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    GOOGLE_DISCOVERY_URL: urlString.default("https://accounts.google.com/.well-known/openid-configuration"),

    PRODUCT_NAME: z.string().trim().min(1).default("ForgeKit"),
    SUPPORT_EMAIL: z.email({ message: "must be an e-mail address" }).default("support@forgekit.example"),
    /** The seller on the demo provider's invoices (Paddle's invoices name Paddle, the merchant of record). */
    SELLER_NAME: optionalString,
    SELLER_ADDRESS: optionalString,
    /** The seller's VAT or tax id on the demo provider's invoices (decision 0040). */
    SELLER_TAX_ID: optionalString,
    DOWNLOAD_URL: z.string().trim().min(1).default(DEMO_DOWNLOAD_PATH),
    STORE_URL: urlString.default("https://apps.microsoft.com/search?query=ForgeKit"),
    /** The winget package id (e.g. ForgeKit.ForgeKit); the download page shows `winget install` with it. */
    WINGET_PACKAGE_ID: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/, { message: "must look like Publisher.Package" })
      .max(128)
      .optional(),
    TUTORIAL_VIDEO_URL: urlString.default("https://www.youtube-nocookie.com/embed/ScMzIvxBSi4"),

    PAYMENT_PROVIDER: z.enum(["demo", "paddle"]).default("demo"),
    /** Production with the demo checkout (a staging site): anyone signed in can take licenses for free. */
    ALLOW_DEMO_PAYMENTS: flag,
    PADDLE_ENVIRONMENT: z.enum(["sandbox", "production"]).default("sandbox"),
    PADDLE_CLIENT_TOKEN: optionalString,
    PADDLE_API_KEY: optionalString,
    PADDLE_WEBHOOK_SECRET: optionalString,
    /**
     * The cancel step's offer (decision 0065): a Paddle discount id (dsc_…) given to the subscription
     * from its next billing period; unset, the offer is the cheaper period where the plan has one.
     */
    RETENTION_DISCOUNT_ID: optionalString,
    /** The discount's percent, as the offer says it and the demo provider takes it off the next renewal. */
    RETENTION_DISCOUNT_PERCENT: z.coerce.number().int().min(1).max(99).default(20),
    DEMO_WEBHOOK_SECRET: optionalString.pipe(secret.optional()),
    ...priceSettings,
  })
  .superRefine(productionRules);

type ParsedEnv = z.infer<typeof envSchema>;

// Where the parts live; callers keep importing them from here.
export { EnvError } from "./env-error.server";
export { SECRET_NAMES } from "./env-secrets.server";
export { pemBlocks } from "./env-values.server";

export type Env = Omit<ParsedEnv, SecretName | "HOST" | "PUBLIC_URL"> & {
  [K in SecretName]: string;
} & {
  HOST: string;
  PUBLIC_URL: string;
  /** Embedded mode (SITE_MODE): defaults, generated secrets, demo seed, dev mailbox. */
  embedded: boolean;
  /** Where generated secrets came from, for the start-up banner. */
  generatedSecrets: SecretName[];
};

/** Parses and completes the configuration; throws EnvError naming each bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  const problems = result.error?.issues.map((i) => `${i.path.join(".") || "environment"} ${i.message}`) ?? [];
  problems.push(...paddleEnvironmentProblems(source, siteMode(source as never)));
  if (!result.success || problems.length > 0) throw new EnvError(problems);
  const parsed = result.data;
  const embedded = siteMode(parsed) === "embedded";
  const generatedSecrets: SecretName[] = [];
  const secrets = {} as Record<SecretName, string>;
  let stored: Partial<Record<SecretName, string>> | undefined;
  for (const name of SECRET_NAMES) {
    const given = parsed[name];
    if (given) {
      // A PEM given in one line (as .env files and dashboards often hold it) has \n for its newlines.
      secrets[name] = name === "LICENSE_SIGNING_KEY" ? given.replace(/\\n/g, "\n") : given;
      continue;
    }
    if (!embedded && name !== "DEMO_WEBHOOK_SECRET") {
      // Unreachable: superRefine requires these in production.
      throw new EnvError([`${name} is required in production`]);
    }
    stored ??= loadOrCreateSecrets(parsed.DATA_DIR);
    secrets[name] = stored[name]!;
    generatedSecrets.push(name);
  }
  const host = parsed.HOST ?? (embedded ? "127.0.0.1" : "0.0.0.0");
  const publicUrl = (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, "");
  const LICENSE_PUBLISHED_KEYS = parsed.LICENSE_PUBLISHED_KEYS?.replace(/\\n/g, "\n");
  return {
    ...parsed,
    ...secrets,
    LICENSE_PUBLISHED_KEYS,
    HOST: host,
    PUBLIC_URL: publicUrl,
    embedded,
    generatedSecrets,
  };
}

/** Machines per license type (MACHINES_PER_PLAN over the defaults). */
export const machineLimits = (env: Env) => env.MACHINES_PER_PLAN ?? DEFAULT_MACHINE_LIMITS;

/** The only configuration the browser sees. Never add a secret here. */
export function publicConfig(env: Env): PublicConfig {
  return {
    productName: env.PRODUCT_NAME,
    supportEmail: env.SUPPORT_EMAIL,
    downloadUrl: env.DOWNLOAD_URL,
    storeUrl: env.STORE_URL,
    tutorialVideoUrl: env.TUTORIAL_VIDEO_URL,
    publicUrl: env.PUBLIC_URL,
    paymentProvider: env.PAYMENT_PROVIDER,
    paddleEnvironment: env.PADDLE_ENVIRONMENT,
    paddleClientToken: env.PADDLE_CLIENT_TOKEN ?? null,
    machinesPerPlan: machineLimits(env),
  };
}
export type { PublicConfig } from "~/domain/views";

let current: Env | undefined;

/** The process's configuration, parsed on first use from process.env. */
export function getEnv(): Env {
  current ??= parseEnv(process.env);
  return current;
}

/** For tests and boot: replace the process's configuration. */
export function setEnv(env: Env): void {
  current = env;
}
