-- Issue 25, "Finding the customer": the admin search finds a customer by any part of a license's short
-- id, by an e-mail address the account had before a change, and by a Paddle customer id.
--
-- The addresses a user had before: recorded by a trigger on users, so every path that changes the
-- address (Better Auth's change-email confirmation, an admin's change, a script) records the old one.
-- A case-only change is the same address and is not recorded. Deleting an account (deleted_at set,
-- the address anonymised) erases the history with it.
CREATE TABLE "user_email_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_email_history" ADD CONSTRAINT "user_email_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_email_history_user_id_idx" ON "user_email_history" USING btree ("user_id","changed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_email_history_email_trgm_idx" ON "user_email_history" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE FUNCTION "record_email_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."deleted_at" IS NOT NULL THEN
		DELETE FROM "user_email_history" WHERE "user_id" = NEW."id";
	ELSIF lower(OLD."email") <> lower(NEW."email") THEN
		INSERT INTO "user_email_history" ("user_id", "email") VALUES (NEW."id", OLD."email");
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_record_email_change" AFTER UPDATE OF "email", "deleted_at" ON "users"
	FOR EACH ROW WHEN (OLD."email" IS DISTINCT FROM NEW."email" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at")
	EXECUTE FUNCTION "record_email_change"();
--> statement-breakpoint
-- The history is shown about its user on the admin pages kept in memory (decision 0028).
CREATE TRIGGER "user_email_history_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "user_email_history"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
-- The Paddle customer who paid each transaction, from now on set by the webhook; for the payments
-- recorded before, read from the stored webhook events of the same transaction.
ALTER TABLE "payments" ADD COLUMN "customer_id" text;--> statement-breakpoint
UPDATE "payments" p SET "customer_id" = e."customer_id"
FROM (
	SELECT DISTINCT ON ("payload" -> 'data' ->> 'id') "payload" -> 'data' ->> 'id' AS "transaction_id",
		"payload" -> 'data' ->> 'customer_id' AS "customer_id"
	FROM "webhook_events"
	WHERE "payload" -> 'data' ->> 'customer_id' IS NOT NULL AND "payload" -> 'data' ->> 'id' LIKE 'txn\_%'
	ORDER BY "payload" -> 'data' ->> 'id', "occurred_at" DESC
) e
WHERE e."transaction_id" = p."id";--> statement-breakpoint
CREATE INDEX "payments_customer_id_idx" ON "payments" USING btree ("customer_id") WHERE "payments"."customer_id" is not null;--> statement-breakpoint
-- Any part of a short id: trigrams of the id without its hyphens (FK82JA9XKD), so a fragment typed
-- across the hyphen matches too.
CREATE INDEX "licenses_short_id_trgm_idx" ON "licenses" USING gin (replace("short_id", '-', '') gin_trgm_ops);
