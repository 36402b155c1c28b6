CREATE TABLE "checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"transaction_id" text,
	"status" text DEFAULT 'creating' NOT NULL,
	"plan_type" text,
	"trial" boolean DEFAULT false NOT NULL,
	"price_id" text,
	"license_id" uuid,
	"months" integer DEFAULT 0 NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkouts_transaction_id_unique" UNIQUE("transaction_id"),
	CONSTRAINT "checkouts_kind_check" CHECK ("checkouts"."kind" in ('plan', 'extension')),
	CONSTRAINT "checkouts_status_check" CHECK ("checkouts"."status" in ('creating', 'open', 'completed', 'failed', 'superseded')),
	CONSTRAINT "checkouts_amount_check" CHECK ("checkouts"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_user_id_idx" ON "checkouts" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_one_trial_per_user_idx" ON "checkouts" USING btree ("user_id") WHERE "checkouts"."trial" and "checkouts"."status" in ('creating', 'open', 'completed');