-- Issue 30: the signed-in page cache (decision 0028) forgets a user's pages when a row naming them
-- changes; a team's rows reach further. Its name shows on every member's /licenses ("provided by
-- <team>"), so a change to the team announces every member, not only its owner (0024's trigger);
-- a member joining, leaving or changing role changes the owner's /licenses (how many members a
-- refund of the subscription would affect), so a change to team_members announces the owner too.
-- A team offering seats to its domain (domain_claim) shows a card on the /licenses of every user
-- at that domain: turning the claim on or off, moving its domain, renaming or deleting such a team
-- announces the users whose address is at the old and the new domain.
CREATE FUNCTION "announce_team_members"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		PERFORM pg_notify('forgekit_user_changes', m.user_id::text)
			FROM team_members m WHERE m.team_id = NEW.id;
		IF (OLD.domain_claim OR NEW.domain_claim)
			AND (OLD.name, OLD.domain_claim, OLD.domain) IS DISTINCT FROM (NEW.name, NEW.domain_claim, NEW.domain) THEN
			PERFORM pg_notify('forgekit_user_changes', u.id::text)
				FROM users u WHERE lower(split_part(u.email, '@', 2)) IN (OLD.domain, NEW.domain);
		END IF;
	ELSIF OLD.domain_claim THEN
		PERFORM pg_notify('forgekit_user_changes', u.id::text)
			FROM users u WHERE lower(split_part(u.email, '@', 2)) = OLD.domain;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "teams_announce_members" AFTER UPDATE OR DELETE ON "teams"
	FOR EACH ROW EXECUTE FUNCTION "announce_team_members"();
--> statement-breakpoint
CREATE FUNCTION "announce_team_owner"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	team uuid;
BEGIN
	IF TG_OP = 'DELETE' THEN
		team := OLD.team_id;
	ELSE
		team := NEW.team_id;
	END IF;
	PERFORM pg_notify('forgekit_user_changes', t.owner_id::text) FROM teams t WHERE t.id = team;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "team_members_announce_owner" AFTER INSERT OR UPDATE OR DELETE ON "team_members"
	FOR EACH ROW EXECUTE FUNCTION "announce_team_owner"();
