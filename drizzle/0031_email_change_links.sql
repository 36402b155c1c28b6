-- Issue 35 (decision 0059): the one-time links of a change of e-mail address, confirm (to the new
-- address) and undo (to the old one, 7 days). Numbered 0031: 0029 is unused.
CREATE TABLE "email_change_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"old_email" text NOT NULL,
	"new_email" text NOT NULL,
	"keep_session_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_change_links_kind_check" CHECK ("email_change_links"."kind" in ('confirm', 'undo'))
);
--> statement-breakpoint
ALTER TABLE "email_change_links" ADD CONSTRAINT "email_change_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_change_links_token_hash_key" ON "email_change_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_change_links_user_id_idx" ON "email_change_links" USING btree ("user_id");