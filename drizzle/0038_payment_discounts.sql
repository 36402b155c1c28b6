ALTER TABLE "payments" ADD COLUMN "discount_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_code" text;