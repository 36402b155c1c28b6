CREATE TABLE "admin_cancel_months" (
	"month" text NOT NULL,
	"reason" text,
	"outcome" text,
	"count" integer NOT NULL,
	CONSTRAINT "admin_cancel_months_key" UNIQUE NULLS NOT DISTINCT("month","reason","outcome")
);
--> statement-breakpoint
CREATE TABLE "admin_license_days" (
	"end_day" date NOT NULL,
	"license_type" text NOT NULL,
	"status" text NOT NULL,
	"is_trial" boolean NOT NULL,
	"auto_renew" boolean NOT NULL,
	"cancellation_requested" boolean NOT NULL,
	"personal" boolean NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "admin_license_days_pk" PRIMARY KEY("end_day","license_type","status","is_trial","auto_renew","cancellation_requested","personal")
);
--> statement-breakpoint
CREATE TABLE "admin_license_first_paid" (
	"license_id" uuid PRIMARY KEY NOT NULL,
	"month" text NOT NULL,
	"license_type" text NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_new_months" (
	"month" text NOT NULL,
	"license_type" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "admin_new_months_month_license_type_pk" PRIMARY KEY("month","license_type")
);
--> statement-breakpoint
CREATE TABLE "admin_payment_days" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "admin_payment_days_day_kind_pk" PRIMARY KEY("day","kind")
);
--> statement-breakpoint
CREATE TABLE "admin_plan_change_months" (
	"month" text NOT NULL,
	"from_plan" text,
	"to_plan" text,
	"count" integer NOT NULL,
	CONSTRAINT "admin_plan_change_months_key" UNIQUE NULLS NOT DISTINCT("month","from_plan","to_plan")
);
--> statement-breakpoint
CREATE TABLE "admin_refund_days" (
	"day" date PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_trial_days" (
	"trial_end_day" date NOT NULL,
	"is_trial" boolean NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "admin_trial_days_trial_end_day_is_trial_pk" PRIMARY KEY("trial_end_day","is_trial")
);
--> statement-breakpoint
-- The admin overview's summaries (decision 0078): grouped counts of licenses, payments, cancel answers
-- and plan switches, kept by the triggers below in the transaction of every write to those tables, so
-- the overview reads a few hundred summary rows instead of counting millions of rows at every view.
-- Every writer (a webhook, a job, an admin, a user's deletion cascading) keeps them right. Days and
-- months are UTC, as the overview shows them. admin_summaries_rebuild() recomputes them from scratch
-- (this migration's backfill; the benchmark after its bulk seed).
CREATE FUNCTION "admin_bump_license"(l "licenses", delta integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "admin_license_days" VALUES ((l.end_date AT TIME ZONE 'UTC')::date, l.license_type, l.status,
		l.is_trial, l.auto_renew, l.cancellation_requested, l.team_role IS NULL, delta)
	ON CONFLICT ON CONSTRAINT "admin_license_days_pk" DO UPDATE SET "count" = "admin_license_days"."count" + excluded."count";
	IF l.trial_starts_at IS NOT NULL AND l.trial_ends_at IS NOT NULL THEN
		INSERT INTO "admin_trial_days" VALUES ((l.trial_ends_at AT TIME ZONE 'UTC')::date, l.is_trial, delta)
		ON CONFLICT ("trial_end_day", "is_trial") DO UPDATE SET "count" = "admin_trial_days"."count" + excluded."count";
	END IF;
	IF l.refunded_at IS NOT NULL THEN
		INSERT INTO "admin_refund_days" VALUES ((l.refunded_at AT TIME ZONE 'UTC')::date, delta)
		ON CONFLICT ("day") DO UPDATE SET "count" = "admin_refund_days"."count" + excluded."count";
	END IF;
END;
$$;
--> statement-breakpoint
-- A license's new subscription, recomputed from its payments and its row: the month of its first paid
-- payment (amount above zero, any kind), its plan now, and how many purchases or renewals were billed
-- at that moment; no row for a team's license, one never paid, or one whose first paid payment was of
-- another kind. The month's total moves by the difference. An advisory lock per license makes two
-- transactions writing payments of one license recompute one after the other.
CREATE FUNCTION "admin_refresh_first_paid"(lid uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	was "admin_license_first_paid";
	plan text;
	first_at timestamptz;
	first_month text;
	n integer := 0;
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('admin_first_paid:' || lid::text));
	SELECT l.license_type INTO plan FROM "licenses" l WHERE l.id = lid AND l.team_role IS NULL;
	IF FOUND THEN
		SELECT min(p.billed_at) INTO first_at FROM "payments" p WHERE p.license_id = lid AND p.amount_cents > 0;
		IF first_at IS NOT NULL THEN
			SELECT count(*) INTO n FROM "payments" p
			WHERE p.license_id = lid AND p.amount_cents > 0 AND p.billed_at = first_at AND p.kind IN ('purchase', 'renewal');
			first_month := to_char(first_at AT TIME ZONE 'UTC', 'YYYY-MM');
		END IF;
	END IF;
	SELECT * INTO was FROM "admin_license_first_paid" WHERE "license_id" = lid;
	IF FOUND THEN
		IF n > 0 AND was.month = first_month AND was.license_type = plan AND was.count = n THEN
			RETURN;
		END IF;
		UPDATE "admin_new_months" SET "count" = "count" - was.count
		WHERE "month" = was.month AND "license_type" = was.license_type;
		DELETE FROM "admin_license_first_paid" WHERE "license_id" = lid;
	END IF;
	IF n > 0 THEN
		INSERT INTO "admin_license_first_paid" VALUES (lid, first_month, plan, n);
		INSERT INTO "admin_new_months" VALUES (first_month, plan, n)
		ON CONFLICT ("month", "license_type") DO UPDATE SET "count" = "admin_new_months"."count" + excluded."count";
	END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "admin_summaries_license"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM "admin_bump_license"(OLD, -1);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM "admin_bump_license"(NEW, 1);
	END IF;
	-- A new license has no payments yet; a deleted one, or one whose plan or team changed, moves its new subscription.
	IF TG_OP = 'DELETE' THEN
		PERFORM "admin_refresh_first_paid"(OLD.id);
	ELSIF TG_OP = 'UPDATE' AND (OLD.id, OLD.license_type, OLD.team_role) IS DISTINCT FROM (NEW.id, NEW.license_type, NEW.team_role) THEN
		PERFORM "admin_refresh_first_paid"(OLD.id);
		PERFORM "admin_refresh_first_paid"(NEW.id);
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "licenses_admin_summaries" AFTER INSERT OR DELETE OR UPDATE OF "id", "end_date", "license_type", "status",
	"is_trial", "auto_renew", "cancellation_requested", "team_role", "trial_starts_at", "trial_ends_at", "refunded_at"
	ON "licenses" FOR EACH ROW EXECUTE FUNCTION "admin_summaries_license"();
--> statement-breakpoint
CREATE FUNCTION "admin_summaries_payment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD.amount_cents > 0 AND OLD.kind IN ('purchase', 'renewal') THEN
		UPDATE "admin_payment_days" SET "count" = "count" - 1
		WHERE "day" = (OLD.billed_at AT TIME ZONE 'UTC')::date AND "kind" = OLD.kind;
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.amount_cents > 0 AND NEW.kind IN ('purchase', 'renewal') THEN
		INSERT INTO "admin_payment_days" VALUES ((NEW.billed_at AT TIME ZONE 'UTC')::date, NEW.kind, 1)
		ON CONFLICT ("day", "kind") DO UPDATE SET "count" = "admin_payment_days"."count" + 1;
	END IF;
	IF TG_OP <> 'INSERT' THEN
		PERFORM "admin_refresh_first_paid"(OLD.license_id);
	END IF;
	IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.license_id <> OLD.license_id) THEN
		PERFORM "admin_refresh_first_paid"(NEW.license_id);
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "payments_admin_summaries" AFTER INSERT OR DELETE OR UPDATE OF "license_id", "kind", "amount_cents", "billed_at"
	ON "payments" FOR EACH ROW EXECUTE FUNCTION "admin_summaries_payment"();
--> statement-breakpoint
CREATE FUNCTION "admin_summaries_cancel_answer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		UPDATE "admin_cancel_months" SET "count" = "count" - 1
		WHERE "month" = to_char(OLD.created_at AT TIME ZONE 'UTC', 'YYYY-MM')
			AND "reason" IS NOT DISTINCT FROM OLD.reason AND "outcome" IS NOT DISTINCT FROM OLD.outcome;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO "admin_cancel_months" VALUES (to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM'), NEW.reason, NEW.outcome, 1)
		ON CONFLICT ON CONSTRAINT "admin_cancel_months_key" DO UPDATE SET "count" = "admin_cancel_months"."count" + 1;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "cancel_answers_admin_summaries" AFTER INSERT OR DELETE OR UPDATE OF "created_at", "reason", "outcome"
	ON "cancel_answers" FOR EACH ROW EXECUTE FUNCTION "admin_summaries_cancel_answer"();
--> statement-breakpoint
CREATE FUNCTION "admin_summaries_user_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD.kind = 'license.plan_changed' THEN
		UPDATE "admin_plan_change_months" SET "count" = "count" - 1
		WHERE "month" = to_char(OLD.at AT TIME ZONE 'UTC', 'YYYY-MM')
			AND "from_plan" IS NOT DISTINCT FROM OLD.details ->> 'from' AND "to_plan" IS NOT DISTINCT FROM OLD.details ->> 'to';
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.kind = 'license.plan_changed' THEN
		INSERT INTO "admin_plan_change_months"
		VALUES (to_char(NEW.at AT TIME ZONE 'UTC', 'YYYY-MM'), NEW.details ->> 'from', NEW.details ->> 'to', 1)
		ON CONFLICT ON CONSTRAINT "admin_plan_change_months_key" DO UPDATE SET "count" = "admin_plan_change_months"."count" + 1;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "user_events_admin_summaries" AFTER INSERT OR DELETE OR UPDATE OF "kind", "details", "at"
	ON "user_events" FOR EACH ROW EXECUTE FUNCTION "admin_summaries_user_event"();
--> statement-breakpoint
CREATE FUNCTION "admin_summaries_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "admin_license_days";
	DELETE FROM "admin_trial_days";
	DELETE FROM "admin_refund_days";
	DELETE FROM "admin_payment_days";
	DELETE FROM "admin_license_first_paid";
	DELETE FROM "admin_new_months";
	DELETE FROM "admin_cancel_months";
	DELETE FROM "admin_plan_change_months";
	INSERT INTO "admin_license_days"
	SELECT (end_date AT TIME ZONE 'UTC')::date, license_type, status, is_trial, auto_renew, cancellation_requested,
		team_role IS NULL, count(*)
	FROM "licenses" GROUP BY 1, 2, 3, 4, 5, 6, 7;
	INSERT INTO "admin_trial_days"
	SELECT (trial_ends_at AT TIME ZONE 'UTC')::date, is_trial, count(*) FROM "licenses"
	WHERE trial_starts_at IS NOT NULL AND trial_ends_at IS NOT NULL GROUP BY 1, 2;
	INSERT INTO "admin_refund_days"
	SELECT (refunded_at AT TIME ZONE 'UTC')::date, count(*) FROM "licenses" WHERE refunded_at IS NOT NULL GROUP BY 1;
	INSERT INTO "admin_payment_days"
	SELECT (billed_at AT TIME ZONE 'UTC')::date, kind, count(*) FROM "payments"
	WHERE amount_cents > 0 AND kind IN ('purchase', 'renewal') GROUP BY 1, 2;
	INSERT INTO "admin_license_first_paid"
	WITH firsts AS (
		SELECT license_id, min(billed_at) AS first_at FROM "payments" WHERE amount_cents > 0 GROUP BY license_id
	), counted AS (
		SELECT p.license_id, f.first_at, count(*) AS n FROM "payments" p
		JOIN firsts f ON f.license_id = p.license_id AND p.billed_at = f.first_at
		WHERE p.amount_cents > 0 AND p.kind IN ('purchase', 'renewal') GROUP BY p.license_id, f.first_at
	)
	SELECT c.license_id, to_char(c.first_at AT TIME ZONE 'UTC', 'YYYY-MM'), l.license_type, c.n
	FROM counted c JOIN "licenses" l ON l.id = c.license_id WHERE l.team_role IS NULL;
	INSERT INTO "admin_new_months"
	SELECT month, license_type, sum(count) FROM "admin_license_first_paid" GROUP BY 1, 2;
	INSERT INTO "admin_cancel_months"
	SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), reason, outcome, count(*) FROM "cancel_answers" GROUP BY 1, 2, 3;
	INSERT INTO "admin_plan_change_months"
	SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM'), details ->> 'from', details ->> 'to', count(*) FROM "user_events"
	WHERE kind = 'license.plan_changed' GROUP BY 1, 2, 3;
END;
$$;
--> statement-breakpoint
SELECT "admin_summaries_rebuild"();
