/**
 * Which payment provider and Paddle environment the site runs with (docs/security.md): production with
 * Paddle names its environment explicitly, the start-up banner and /readyz say which, and a
 * production site on Paddle's sandbox is warned about at start.
 */
export const PADDLE_ENVIRONMENT_REQUIRED =
  "is required when PAYMENT_PROVIDER=paddle in production: set it to production (real payments) or sandbox (Paddle's test environment)";

export const PADDLE_SANDBOX_IN_PRODUCTION =
  "PADDLE_ENVIRONMENT=sandbox in production: checkouts go to Paddle's sandbox and take no real payments";

interface PaymentsConfig {
  PAYMENT_PROVIDER: "demo" | "paddle";
  PADDLE_ENVIRONMENT: "sandbox" | "production";
}

/** "demo", "paddle (production)" or "paddle (sandbox)". */
export function paymentsLabel(env: PaymentsConfig): string {
  return env.PAYMENT_PROVIDER === "paddle" ? `paddle (${env.PADDLE_ENVIRONMENT})` : "demo";
}

/** The warning to log at start, or null: Paddle's sandbox on a production site. */
export function paymentsWarning(env: PaymentsConfig & { embedded: boolean }): string | null {
  return !env.embedded && env.PAYMENT_PROVIDER === "paddle" && env.PADDLE_ENVIRONMENT === "sandbox"
    ? PADDLE_SANDBOX_IN_PRODUCTION
    : null;
}

/**
 * PADDLE_ENVIRONMENT's own rule, on the variables as given (the schema's default is sandbox): in
 * production with PAYMENT_PROVIDER=paddle it must be set, so a live site never takes sandbox
 * checkouts because a variable was forgotten.
 */
export function paddleEnvironmentProblems(
  source: Record<string, string | undefined>,
  mode: "embedded" | "production",
): string[] {
  if (mode !== "production" || source.PAYMENT_PROVIDER !== "paddle") return [];
  return source.PADDLE_ENVIRONMENT ? [] : [`PADDLE_ENVIRONMENT ${PADDLE_ENVIRONMENT_REQUIRED}`];
}
