-- Floating leases (decision 0069): a license lends a lease to a machine that comes and goes for a
-- time to live; a lease counts only while expires_at is in the future. The licenses page and the
-- admin's user page show the leases in use, so a take or a return (and a deleted row) announces its
-- user like machines do (migration 0015); a heartbeat, which only moves expires_at on, announces nothing.
CREATE TABLE "leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"fingerprint_hash" text NOT NULL,
	"name" text,
	"ttl_minutes" integer NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"returned_at" timestamp with time zone,
	CONSTRAINT "leases_ttl_minutes_check" CHECK ("leases"."ttl_minutes" between 1 and 1440)
);
--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leases_license_expires_at_idx" ON "leases" USING btree ("license_id","expires_at");--> statement-breakpoint
CREATE INDEX "leases_user_expires_at_idx" ON "leases" USING btree ("user_id","expires_at");
--> statement-breakpoint
CREATE TRIGGER "leases_announce_user_change" AFTER INSERT OR DELETE OR UPDATE OF "returned_at" ON "leases"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
