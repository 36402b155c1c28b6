ALTER TABLE "payments" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_cents_check" CHECK ("payments"."refunded_cents" >= 0);--> statement-breakpoint
-- Refunds approved before this column existed: the license's newest paid purchase or renewal is what was refunded.
UPDATE "payments" SET "refunded_cents" = least(r."refund_amount", "payments"."amount_cents")
FROM (
  SELECT DISTINCT ON (p."license_id") p."id", l."refund_amount"
  FROM "payments" p JOIN "licenses" l ON l."id" = p."license_id"
  WHERE l."refunded" AND l."refund_amount" IS NOT NULL AND p."amount_cents" > 0 AND p."kind" IN ('purchase', 'renewal')
  ORDER BY p."license_id", p."billed_at" DESC
) r
WHERE "payments"."id" = r."id";--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "past_due_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "payment_state_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "payments_user_id_billed_at_idx" ON "payments" USING btree ("user_id","billed_at" DESC NULLS LAST);
