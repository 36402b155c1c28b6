-- Issue 28: the buyer's billing name, address and VAT or tax id on the profile, printed on the demo
-- provider's invoices. profiles already announces its user's changes (migration 0015).
ALTER TABLE "profiles" ADD COLUMN "billing_name" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "billing_tax_id" text;