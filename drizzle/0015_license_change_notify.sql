-- Issue 13: signed-in pages remembered per session (server/signed-in-page-cache.ts) are forgotten the
-- moment one of the user's licenses changes, whoever changed it (a webhook, a job, an admin, the
-- customer, a script): every insert, update or delete of a license announces its user on the
-- `forgekit_licenses` channel when the transaction commits (PostgreSQL folds repeats within one).
CREATE FUNCTION "announce_license_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD."user_id" IS NOT NULL THEN
		PERFORM pg_notify('forgekit_licenses', OLD."user_id"::text);
	END IF;
	IF TG_OP <> 'DELETE' AND NEW."user_id" IS NOT NULL THEN
		PERFORM pg_notify('forgekit_licenses', NEW."user_id"::text);
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "licenses_announce_change" AFTER INSERT OR UPDATE OR DELETE ON "licenses"
	FOR EACH ROW EXECUTE FUNCTION "announce_license_change"();
