import { z } from "zod";
import { CUSTOMER_MAIL_KINDS } from "~/domain/customer-mail";

/**
 * Every kind of background job and the payload it carries, declared once: `enqueue` is typed by the
 * kind and checks the payload against its schema before the job is queued, and the queue checks it
 * again before the handler runs (a job written by hand or by an older build fails its attempt with
 * the schema's message instead of reaching the handler malformed). The handlers are listed by kind in
 * definitions.server.ts; this file knows none of them, so any service may import it.
 */

const hourly = z.object({ hour: z.string().min(1) });

/** Why a team's subscription ended (the "team ended" e-mail says which). */
export const TEAM_END_REASONS = ["cancelled", "refunded", "revoked"] as const;

export const JOB_PAYLOADS = {
  "stop-renewal": z.object({
    licenseId: z.string().min(1),
    subscriptionId: z.string().min(1),
    record: z.boolean(),
  }),
  "customer-mail": z.object({
    kind: z.enum(CUSTOMER_MAIL_KINDS),
    licenseId: z.string().min(1),
    details: z.object({
      amountCents: z.number().optional(),
      currency: z.string().optional(),
      months: z.number().optional(),
      graceUntil: z.string().optional(),
      at: z.string().optional(),
      reason: z.string().optional(),
    }),
  }),
  "reminder-scan": hourly,
  "demo-refund-approval": z.object({ adjustmentId: z.string().min(1) }),
  housekeeping: hourly,
  "machine-inactivity": hourly,
  "machine-activated-mail": z.object({ machineId: z.string().min(1) }),
  "webhook-delivery": z.object({
    eventId: z.string().min(1),
    endpointId: z.string().min(1),
    attempt: z.number().int(),
    manual: z.boolean().optional(),
  }),
  /** One run per database (decision 0075): nothing to carry. */
  "fallback-backfill": z.object({}).strict(),
  "team-ended-mail": z.object({
    teamId: z.string().min(1),
    userId: z.string().min(1),
    reason: z.enum(TEAM_END_REASONS),
  }),
};

export type JobKind = keyof typeof JOB_PAYLOADS;

/** What a job of `kind` carries (its schema's output). */
export type JobPayload<K extends JobKind> = z.output<(typeof JOB_PAYLOADS)[K]>;

/** The jobs that run every hour (hourly.server.ts): their payload is the hour. */
export type HourlyJobKind = "reminder-scan" | "housekeeping" | "machine-inactivity";
