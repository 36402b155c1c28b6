-- Plan switches (decision 0061): a switch to a shorter plan waits on the license for the next renewal,
-- and the prorated charge of a switch to a longer plan is a payment of its own kind.
ALTER TABLE "payments" DROP CONSTRAINT "payments_kind_check";--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "plan_next_renewal" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_plan_next_renewal_check" CHECK ("licenses"."plan_next_renewal" is null or "licenses"."plan_next_renewal" in ('monthly', '6_months', 'yearly'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_kind_check" CHECK ("payments"."kind" in ('purchase', 'renewal', 'extension', 'seats', 'plan_change'));
