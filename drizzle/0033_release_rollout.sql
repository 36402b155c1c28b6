-- Releases rolled out with care (decision 0062): the percentage of machines the update check offers a
-- release to (100, everyone, for every existing release), whether the tool should install it, and the
-- version below which a tool must update before it runs on.
ALTER TABLE "releases" ADD COLUMN "rollout_percent" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "critical" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "minimum_version" text;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_rollout_percent_check" CHECK ("releases"."rollout_percent" between 0 and 100);