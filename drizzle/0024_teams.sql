CREATE TABLE "team_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_invitations_status_check" CHECK ("team_invitations"."status" in ('pending', 'accepted', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"seat_license_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id"),
	CONSTRAINT "team_members_role_check" CHECK ("team_members"."role" in ('owner', 'manager', 'member'))
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"plan_type" text NOT NULL,
	"subscription_id" text NOT NULL,
	"price_id" text,
	"seats_paid" integer NOT NULL,
	"seats_next_renewal" integer,
	"domain_claim" boolean DEFAULT false NOT NULL,
	"domain" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_seats_paid_check" CHECK ("teams"."seats_paid" between 1 and 100),
	CONSTRAINT "teams_seats_next_renewal_check" CHECK ("teams"."seats_next_renewal" is null or "teams"."seats_next_renewal" between 1 and 100),
	CONSTRAINT "teams_name_check" CHECK (length(trim("teams"."name")) between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_kind_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_kind_check";--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "team_role" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_seat_license_id_licenses_id_fk" FOREIGN KEY ("seat_license_id") REFERENCES "public"."licenses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_invitations_token_hash_key" ON "team_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "team_invitations_pending_email_key" ON "team_invitations" USING btree ("team_id","email") WHERE "team_invitations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "team_invitations_team_id_idx" ON "team_invitations" USING btree ("team_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "team_members_user_id_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_seat_license_id_key" ON "team_members" USING btree ("seat_license_id") WHERE "team_members"."seat_license_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "teams_subscription_id_key" ON "teams" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "teams_owner_id_idx" ON "teams" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "teams_name_trgm_idx" ON "teams" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licenses_team_id_idx" ON "licenses" USING btree ("team_id") WHERE "licenses"."team_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_team_billing_key" ON "licenses" USING btree ("team_id") WHERE "licenses"."team_role" = 'billing';--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_quantity_check" CHECK ("checkouts"."quantity" between 1 and 100);--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_kind_check" CHECK ("checkouts"."kind" in ('plan', 'extension', 'team'));--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_team_role_check" CHECK (("licenses"."team_role" is null and "licenses"."team_id" is null) or "licenses"."team_role" in ('billing', 'seat'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_kind_check" CHECK ("payments"."kind" in ('purchase', 'renewal', 'extension', 'seats'));--> statement-breakpoint
-- Every seat license of a team follows its subscription's license ("billing"): whatever changes that
-- license's state (a webhook, a refund request, support's revoke), the seats show the same state, so
-- the licenses page's one state function decides every seat. A seat revoked by its removal from the
-- team (revoked_reason set) stays revoked. Keys are regenerated by the application on renewal.
CREATE FUNCTION team_seats_follow_billing() RETURNS trigger AS $$
BEGIN
  UPDATE licenses SET
    status = NEW.status,
    end_date = greatest(NEW.end_date, licenses.start_date),
    license_type = NEW.license_type,
    is_trial = NEW.is_trial,
    trial_starts_at = NEW.trial_starts_at,
    trial_ends_at = NEW.trial_ends_at,
    auto_renew = NEW.auto_renew,
    cancellation_requested = NEW.cancellation_requested,
    cancellation_requested_at = NEW.cancellation_requested_at,
    past_due_since = NEW.past_due_since,
    payment_state_at = NEW.payment_state_at,
    refunded = NEW.refunded,
    refunded_at = NEW.refunded_at
  WHERE team_id = NEW.team_id AND team_role = 'seat' AND revoked_reason IS NULL AND id <> NEW.id;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER licenses_team_seats_follow AFTER UPDATE ON licenses
  FOR EACH ROW WHEN (NEW.team_role = 'billing' AND NEW.team_id IS NOT NULL)
  EXECUTE FUNCTION team_seats_follow_billing();
