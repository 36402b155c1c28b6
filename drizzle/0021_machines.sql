-- Issue 26 (decision 0041): machines activated by fingerprint hash, the deactivations that count toward
-- the self-service limit, and rate-limiter-flexible's PostgreSQL counters shared by every app server.
-- The licenses page (kept in memory, decision 0028) reads machines and deactivations: both announce
-- their user on change. The rate-limit counters are UNLOGGED (no write-ahead log: an upsert per API
-- request must not wait for a WAL flush; a crash empties the counters, which only forgives a minute).
CREATE UNLOGGED TABLE "api_rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "machine_deactivations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"machine_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"counts_toward_limit" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"fingerprint_hash" text NOT NULL,
	"name" text NOT NULL,
	"platform" text,
	"app_version" text,
	"activated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" text
);
--> statement-breakpoint
ALTER TABLE "machine_deactivations" ADD CONSTRAINT "machine_deactivations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_deactivations" ADD CONSTRAINT "machine_deactivations_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_deactivations" ADD CONSTRAINT "machine_deactivations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_deactivations_license_created_at_idx" ON "machine_deactivations" USING btree ("license_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "machines_active_fingerprint_key" ON "machines" USING btree ("license_id","fingerprint_hash") WHERE "machines"."deactivated_at" is null;--> statement-breakpoint
CREATE INDEX "machines_user_id_idx" ON "machines" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "machines_active_last_seen_idx" ON "machines" USING btree ("last_seen_at") WHERE "machines"."deactivated_at" is null;--> statement-breakpoint
CREATE INDEX "machines_activated_at_idx" ON "machines" USING btree ("activated_at");
--> statement-breakpoint
CREATE TRIGGER "machines_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "machines"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "machine_deactivations_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "machine_deactivations"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
