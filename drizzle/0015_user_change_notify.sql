-- Issue 13: signed-in pages remembered per session (server/signed-in-page-cache.ts, decision 0028) are
-- forgotten the moment anything they show about their user changes, whoever changed it (a webhook, a
-- job, an admin, the customer, a script): every insert, update or delete of a row of these tables
-- announces the user it belongs to on `forgekit_user_changes` when the transaction commits
-- (PostgreSQL folds repeats within one transaction). The trigger's argument names the user column; a
-- row without a user (a system audit entry, a detached license) announces '' (the admin area's pages).
CREATE FUNCTION "announce_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	old_user text;
	new_user text;
BEGIN
	IF TG_OP <> 'INSERT' THEN
		old_user := coalesce(to_jsonb(OLD) ->> TG_ARGV[0], '');
		PERFORM pg_notify('forgekit_user_changes', old_user);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		new_user := coalesce(to_jsonb(NEW) ->> TG_ARGV[0], '');
		IF new_user IS DISTINCT FROM old_user THEN
			PERFORM pg_notify('forgekit_user_changes', new_user);
		END IF;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "licenses_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "licenses"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "payments_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "payments"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "sessions_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "accounts_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "accounts"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "two_factors_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "two_factors"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "user_roles_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "user_roles"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "users_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('id');
--> statement-breakpoint
CREATE TRIGGER "profiles_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "profiles"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('id');
--> statement-breakpoint
CREATE TRIGGER "audit_log_announce_user_change" AFTER INSERT OR UPDATE OR DELETE ON "audit_log"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"('actor_id');
