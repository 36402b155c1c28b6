-- Leaving (decision 0065): the cancel step's answers (reason, note, the offer made and its outcome),
-- the license's once-only offer, and the overview's indexes for churn and plan switches by month.
CREATE TABLE "cancel_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"reason" text,
	"note" text,
	"offer" text,
	"outcome" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cancel_answers_reason_check" CHECK ("cancel_answers"."reason" is null or "cancel_answers"."reason" in ('too-expensive', 'not-using', 'missing-feature', 'switching', 'technical-problems', 'other')),
	CONSTRAINT "cancel_answers_note_check" CHECK ("cancel_answers"."note" is null or char_length("cancel_answers"."note") <= 500),
	CONSTRAINT "cancel_answers_offer_check" CHECK ("cancel_answers"."offer" is null or "cancel_answers"."offer" in ('discount', 'cheaper-period')),
	CONSTRAINT "cancel_answers_outcome_check" CHECK (("cancel_answers"."offer" is null) = ("cancel_answers"."outcome" is null) and ("cancel_answers"."outcome" is null or "cancel_answers"."outcome" in ('taken', 'declined')))
);
--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "retention_offer_outcome" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "retention_offer_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cancel_answers" ADD CONSTRAINT "cancel_answers_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cancel_answers_created_at_idx" ON "cancel_answers" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "cancel_answers_license_id_idx" ON "cancel_answers" USING btree ("license_id");--> statement-breakpoint
CREATE INDEX "licenses_cancelled_end_date_idx" ON "licenses" USING btree ("end_date") WHERE "licenses"."cancellation_requested";--> statement-breakpoint
CREATE INDEX "user_events_plan_changed_at_idx" ON "user_events" USING btree ("at") WHERE "user_events"."kind" = 'license.plan_changed';--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_retention_offer_outcome_check" CHECK ("licenses"."retention_offer_outcome" is null or "licenses"."retention_offer_outcome" in ('taken', 'declined'));