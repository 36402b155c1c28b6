-- Issue 25 (support back office) and 24 (one state): the customer's timeline (user_events, written by
-- the code that causes each event, in its transaction; admin actions stay in audit_log: decision 0038)
-- and the card the provider last charged for a license (brand and last 4, shown to support).
CREATE TABLE "user_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "payment_card_brand" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "payment_card_last4" text;--> statement-breakpoint
ALTER TABLE "user_events" ADD CONSTRAINT "user_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_events_user_id_at_idx" ON "user_events" USING btree ("user_id","at" DESC NULLS LAST);--> statement-breakpoint
-- The timeline is shown about its user on the admin pages kept in memory (decision 0028).
CREATE TRIGGER "user_events_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "user_events"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
-- The timeline's money and license facts are written by triggers, in the transaction of the change,
-- so every path that makes them (webhooks, jobs, the demo provider, a script, the seed) records them:
-- a payment (purchase, renewal, extension) and what refunds gave back of it.
CREATE FUNCTION "record_payment_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	short text;
BEGIN
	SELECT "short_id" INTO short FROM "licenses" WHERE "id" = NEW."license_id";
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "user_events" ("user_id", "kind", "details", "at") VALUES (NEW."user_id", 'payment.' || NEW."kind",
			jsonb_build_object('transaction_id', NEW."id", 'amount_cents', NEW."amount_cents", 'currency', NEW."currency",
				'license_id', NEW."license_id", 'short_id', short), NEW."billed_at");
		IF NEW."refunded_cents" > 0 THEN
			INSERT INTO "user_events" ("user_id", "kind", "details") VALUES (NEW."user_id", 'refund.done',
				jsonb_build_object('transaction_id', NEW."id", 'refunded_cents', NEW."refunded_cents", 'currency', NEW."currency",
					'license_id', NEW."license_id", 'short_id', short));
		END IF;
	ELSIF NEW."refunded_cents" > OLD."refunded_cents" THEN
		INSERT INTO "user_events" ("user_id", "kind", "details") VALUES (NEW."user_id", 'refund.done',
			jsonb_build_object('transaction_id', NEW."id", 'refunded_cents', NEW."refunded_cents" - OLD."refunded_cents",
				'currency', NEW."currency", 'license_id', NEW."license_id", 'short_id', short));
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "payments_record_user_event" AFTER INSERT OR UPDATE OF "refunded_cents" ON "payments"
	FOR EACH ROW EXECUTE FUNCTION "record_payment_event"();
--> statement-breakpoint
-- A license's refund request, failed and recovered renewal payments, renewal cancelled or resumed,
-- offline data entered or cleared.
CREATE FUNCTION "record_license_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	base jsonb := jsonb_build_object('license_id', NEW."id", 'short_id', NEW."short_id");
	was_new boolean := TG_OP = 'INSERT';
BEGIN
	IF NEW."status" = 'refund_requested' AND (was_new OR OLD."status" <> 'refund_requested') THEN
		INSERT INTO "user_events" ("user_id", "kind", "details") VALUES (NEW."user_id", 'refund.requested', base);
	END IF;
	IF NEW."past_due_since" IS NOT NULL AND (was_new OR OLD."past_due_since" IS NULL) THEN
		INSERT INTO "user_events" ("user_id", "kind", "details", "at")
			VALUES (NEW."user_id", 'payment.failed', base, NEW."past_due_since");
	ELSIF NOT was_new AND NEW."past_due_since" IS NULL AND OLD."past_due_since" IS NOT NULL THEN
		INSERT INTO "user_events" ("user_id", "kind", "details") VALUES (NEW."user_id", 'payment.recovered', base);
	END IF;
	IF NOT was_new AND NEW."cancellation_requested" IS DISTINCT FROM OLD."cancellation_requested" THEN
		INSERT INTO "user_events" ("user_id", "kind", "details") VALUES (NEW."user_id",
			CASE WHEN NEW."cancellation_requested" THEN 'renewal.cancelled' ELSE 'renewal.resumed' END, base);
	END IF;
	IF NOT was_new AND (NEW."windows_username" IS DISTINCT FROM OLD."windows_username"
		OR NEW."computer_name" IS DISTINCT FROM OLD."computer_name") THEN
		INSERT INTO "user_events" ("user_id", "kind", "details") VALUES (NEW."user_id",
			CASE WHEN NEW."windows_username" IS NULL AND NEW."computer_name" IS NULL THEN 'offline_data.cleared'
				ELSE 'offline_data.set' END, base);
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "licenses_record_user_event" AFTER INSERT OR UPDATE OF "status", "past_due_since",
	"cancellation_requested", "windows_username", "computer_name" ON "licenses"
	FOR EACH ROW EXECUTE FUNCTION "record_license_event"();
--> statement-breakpoint
-- An address change (the customer's own, confirmed by the link, or support's) on the timeline too.
CREATE OR REPLACE FUNCTION "record_email_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."deleted_at" IS NOT NULL THEN
		DELETE FROM "user_email_history" WHERE "user_id" = NEW."id";
		DELETE FROM "user_events" WHERE "user_id" = NEW."id";
	ELSIF lower(OLD."email") <> lower(NEW."email") THEN
		INSERT INTO "user_email_history" ("user_id", "email") VALUES (NEW."id", OLD."email");
		INSERT INTO "user_events" ("user_id", "kind", "details")
			VALUES (NEW."id", 'account.email_changed', jsonb_build_object('from', OLD."email", 'to', NEW."email"));
	END IF;
	RETURN NULL;
END;
$$;
