-- Issue 16: the admin overview, user list, user page and audit filters.
-- A user's last sign-in, kept by the database whenever a session is created (no auth hook needed).
ALTER TABLE "profiles" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
CREATE FUNCTION "record_last_sign_in"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "profiles" SET "last_sign_in_at" = NEW."created_at"
	WHERE "id" = NEW."user_id" AND ("last_sign_in_at" IS NULL OR "last_sign_in_at" < NEW."created_at");
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_record_last_sign_in" AFTER INSERT ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION "record_last_sign_in"();
--> statement-breakpoint
UPDATE "profiles" p SET "last_sign_in_at" = s."at"
FROM (SELECT "user_id", max("created_at") AS "at" FROM "sessions" GROUP BY "user_id") s
WHERE s."user_id" = p."id";--> statement-breakpoint
-- The user list, newest first.
CREATE INDEX "users_created_at_id_idx" ON "users" USING btree ("created_at" DESC,"id" DESC);--> statement-breakpoint
-- Overview: active licenses by kind and the renewing subscriptions (index-only).
CREATE INDEX "licenses_active_overview_idx" ON "licenses" USING btree ("end_date","license_type","is_trial","auto_renew") WHERE "licenses"."status" = 'active';--> statement-breakpoint
CREATE INDEX "licenses_trial_ends_at_idx" ON "licenses" USING btree ("trial_ends_at","is_trial") WHERE "licenses"."trial_starts_at" is not null;--> statement-breakpoint
CREATE INDEX "licenses_refunded_at_idx" ON "licenses" USING btree ("refunded_at") WHERE "licenses"."refunded_at" is not null;--> statement-breakpoint
CREATE INDEX "payments_billed_at_idx" ON "payments" USING btree ("billed_at","kind","amount_cents");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_user_id_billed_at_idx" ON "payments" USING btree ("user_id","billed_at" DESC);--> statement-breakpoint
CREATE INDEX "payments_subscription_id_idx" ON "payments" USING btree ("subscription_id");--> statement-breakpoint
-- Audit log filters and a user's entries.
CREATE INDEX "audit_log_action_created_at_idx" ON "audit_log" USING btree ("action","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target_id_idx" ON "audit_log" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_id_idx" ON "audit_log" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_log_details_user_id_idx" ON "audit_log" USING btree (("details" ->> 'user_id'));
