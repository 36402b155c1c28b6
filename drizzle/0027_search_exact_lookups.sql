-- Issue 25 (decision 0052): the admin search finds an address by its part before the @ from an index of local
-- parts read backwards (no trigram bitmaps of every address sharing "use", "gma", "com"), and a term of several
-- words equal to a whole name from an index that holds those users in name order.
-- IF NOT EXISTS: should this migration be renumbered when merged, a database that ran it already runs it again harmlessly.
CREATE INDEX IF NOT EXISTS "licenses_email_local_end_idx" ON "licenses" USING btree (reverse(lower(split_part("email", '@', 1))) text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_full_name_lower_idx" ON "profiles" USING btree (lower("full_name"),"full_name","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_email_history_email_local_end_idx" ON "user_email_history" USING btree (reverse(lower(split_part("email", '@', 1))) text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_local_end_idx" ON "users" USING btree (reverse(lower(split_part("email", '@', 1))) text_pattern_ops);