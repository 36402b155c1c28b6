import type { z } from "zod";

/** Production rules or embedded defaults: SITE_MODE, else the NODE_ENV the site was started with. */
export function siteMode(value: {
  SITE_MODE?: "embedded" | "production";
  NODE_ENV: string;
}): "embedded" | "production" {
  return value.SITE_MODE ?? (value.NODE_ENV === "production" ? "production" : "embedded");
}

/** What production requires beyond each variable's own rule (env.server.ts's schema refines with it). */
export function productionRules(
  value: {
    SITE_MODE?: "embedded" | "production";
    NODE_ENV: string;
    BETTER_AUTH_SECRET?: string;
    LICENSE_SECRET?: string;
    LICENSE_SALT?: string;
    LICENSE_SIGNING_KEY?: string;
    PUBLIC_URL?: string;
    PAYMENT_PROVIDER: "demo" | "paddle";
    PADDLE_CLIENT_TOKEN?: string;
    PADDLE_API_KEY?: string;
    PADDLE_WEBHOOK_SECRET?: string;
    ALLOW_DEMO_PAYMENTS: boolean;
    SMTP_URL?: string;
    EMAIL_DISABLED: boolean;
  },
  ctx: z.RefinementCtx,
): void {
  if (siteMode(value) !== "production") return;
  const required = [
    "BETTER_AUTH_SECRET",
    "LICENSE_SECRET",
    "LICENSE_SALT",
    "LICENSE_SIGNING_KEY",
    "PUBLIC_URL",
  ] as const;
  for (const name of required) {
    if (!value[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required in production" });
  }
  if (value.PAYMENT_PROVIDER === "paddle") {
    for (const name of ["PADDLE_CLIENT_TOKEN", "PADDLE_API_KEY", "PADDLE_WEBHOOK_SECRET"] as const) {
      if (!value[name]) {
        ctx.addIssue({ code: "custom", path: [name], message: "is required when PAYMENT_PROVIDER=paddle" });
      }
    }
  } else if (!value.ALLOW_DEMO_PAYMENTS) {
    // The demo checkout gives licenses away: production never runs it by accident.
    ctx.addIssue({
      code: "custom",
      path: ["PAYMENT_PROVIDER"],
      message:
        "must be paddle in production (with PADDLE_CLIENT_TOKEN, PADDLE_API_KEY and PADDLE_WEBHOOK_SECRET); " +
        "to run the free demo checkout on a staging site, set ALLOW_DEMO_PAYMENTS=true",
    });
  }
  if (!value.SMTP_URL && !value.EMAIL_DISABLED) {
    ctx.addIssue({
      code: "custom",
      path: ["SMTP_URL"],
      message:
        "is required in production (confirmation and password-reset e-mails); set EMAIL_DISABLED=true to run without sending e-mail",
    });
  }
}
