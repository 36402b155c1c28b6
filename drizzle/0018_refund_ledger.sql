-- Issue 24 (decision 0036): a refund covers every charge of a license, one provider adjustment per transaction.
-- Each payment keeps its refund adjustment as last reported and the site's own request of it, so out-of-order
-- events converge and a failed request shows nothing as refunded. payments already announces its user (0015).
ALTER TABLE "payments" ADD COLUMN "pending_refund_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_adjustment_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_cents" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_status" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_request" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_pending_refund_cents_check" CHECK ("payments"."pending_refund_cents" >= 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_request_check" CHECK ("payments"."refund_request" is null or "payments"."refund_request" in ('requesting', 'requested', 'abandoned'));