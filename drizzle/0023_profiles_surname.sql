-- Issue 25 (decision 0048): a one-word admin search term equal to a surname (the last word of the name) reads
-- its users in name order from this index instead of the name walk and the trigram candidates.
CREATE INDEX "profiles_surname_idx" ON "profiles" USING btree (lower(regexp_replace("full_name", '^.*[[:space:]]', '')),"full_name","id");