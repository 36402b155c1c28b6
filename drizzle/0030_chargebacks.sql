-- Chargebacks (decision 0056): a payment keeps the dispute the provider reported (a warning, a
-- chargeback, its reversal); a license whose payment was charged back is revoked for it
-- (charged_back_at), and a team's seats follow their subscription's license in that too.
ALTER TABLE "licenses" ADD COLUMN "charged_back_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_adjustment_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_cents" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_dispute_status_idx" ON "payments" USING btree ("dispute_status") WHERE "payments"."dispute_status" is not null;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_dispute_status_check" CHECK ("payments"."dispute_status" is null or "payments"."dispute_status" in ('warning', 'charged_back', 'reversed'));--> statement-breakpoint
-- The seats follow their subscription's license (migration 0024), now with its chargeback mark, so a
-- seat of a charged-back team says why it stopped, and a reversal restores every seat.
CREATE OR REPLACE FUNCTION team_seats_follow_billing() RETURNS trigger AS $$
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
    refunded_at = NEW.refunded_at,
    charged_back_at = NEW.charged_back_at
  WHERE team_id = NEW.team_id AND team_role = 'seat' AND revoked_reason IS NULL AND id <> NEW.id;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
