-- Issue 27 and 25: API tokens (hashed, scoped, expiring, revocable) and releases with channels,
-- drafts, yanking and their own download address. Releases that exist were on the public pages:
-- they stay published. A version may be entered once; earlier duplicates get a build-metadata
-- suffix (which version order ignores) so the unique index can be built.
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_tokens_scopes_check" CHECK (cardinality("api_tokens"."scopes") > 0)
);
--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "channel" text DEFAULT 'stable' NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "download_url" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "yanked_at" timestamp with time zone;--> statement-breakpoint
UPDATE "releases" SET "published_at" = "created_at";--> statement-breakpoint
UPDATE "releases" SET "version" = "releases"."version" || '+duplicate-' || "d"."n"
	FROM (SELECT "id", row_number() OVER (PARTITION BY "version" ORDER BY "created_at", "id") - 1 AS "n" FROM "releases") AS "d"
	WHERE "d"."id" = "releases"."id" AND "d"."n" > 0;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_created_at_idx" ON "api_tokens" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "releases_version_key" ON "releases" USING btree ("version");--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_channel_check" CHECK ("releases"."channel" in ('stable', 'beta'));