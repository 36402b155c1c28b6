import { z } from "zod";
import {
  DEFAULT_DEACTIVATIONS_PER_WINDOW,
  DEFAULT_MACHINE_LIMITS,
  parseFingerprintPlans,
  parseMachineLimits,
} from "~/domain/machines";
import { optionalString } from "./env-values.server";

const wholeNumber = (what: string) =>
  z.coerce
    .number({ message: `must be a whole number of ${what}` })
    .int({ message: `must be a whole number of ${what}` });

/**
 * The machines' settings (decision 0041), part of the configuration schema in
 * env.server.ts: machines per plan, the self-service deactivation limit, the release of silent
 * machines, and the desktop API's limit per license key.
 */
export const machineSettings = {
  /** "plan=n,…" (monthly, 6_months, yearly, trial, tester); a plan not named keeps its default (2; tester 1). */
  MACHINES_PER_PLAN: optionalString.transform((text, ctx) => {
    const parsed = parseMachineLimits(text);
    if (parsed.ok) return parsed.limits;
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  }),
  /** "plan,…": the plans whose desktop API validations must send the machine's fingerprint; unset: none. */
  REQUIRE_FINGERPRINT_PLANS: optionalString.transform((text, ctx) => {
    const parsed = parseFingerprintPlans(text);
    if (parsed.ok) return parsed.plans;
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  }),
  /** Deactivations a customer may make per license in any 30 days (web and tool together). */
  MACHINE_DEACTIVATION_LIMIT: wholeNumber("deactivations")
    .min(1, { message: "must be at least 1" })
    .max(100, { message: "must be at most 100" })
    .default(DEFAULT_DEACTIVATIONS_PER_WINDOW),
  /** Days after which a machine not seen is released by the inactivity job; unset: never. */
  MACHINE_INACTIVE_AFTER_DAYS: optionalString.pipe(
    z.coerce
      .number({ message: "must be a whole number of days" })
      .int({ message: "must be a whole number of days" })
      .min(1, { message: "must be at least 1 (day)" })
      .max(3650, { message: "must be at most 3650 (days)" })
      .optional() as z.ZodType<number | undefined, string | undefined>,
  ),
  /** Desktop API requests per minute per license key (besides API_RATE_LIMIT per client IP). */
  API_KEY_RATE_LIMIT: wholeNumber("requests").min(1).default(60),
};

export { DEFAULT_MACHINE_LIMITS };
