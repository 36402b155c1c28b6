CREATE TABLE "license_keys" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"license_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_keys_license_id_idx" ON "license_keys" USING btree ("license_id");--> statement-breakpoint
-- Every key written to licenses (purchase, renewal, extension, offline data, tester license, seed)
-- is recorded by its hash, so a key the site ever issued resolves to its license (desktop API).
CREATE FUNCTION "record_license_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "license_keys" ("key_hash", "license_id")
	VALUES (encode(sha256(convert_to(NEW."license_key", 'UTF8')), 'hex'), NEW."id")
	ON CONFLICT ("key_hash") DO NOTHING;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "licenses_record_key_on_insert" AFTER INSERT ON "licenses"
	FOR EACH ROW EXECUTE FUNCTION "record_license_key"();
--> statement-breakpoint
CREATE TRIGGER "licenses_record_key_on_update" AFTER UPDATE OF "license_key" ON "licenses"
	FOR EACH ROW WHEN (OLD."license_key" IS DISTINCT FROM NEW."license_key") EXECUTE FUNCTION "record_license_key"();
--> statement-breakpoint
-- Backfill: the current key of every license that exists before this migration.
INSERT INTO "license_keys" ("key_hash", "license_id")
SELECT encode(sha256(convert_to("license_key", 'UTF8')), 'hex'), "id" FROM "licenses"
ON CONFLICT ("key_hash") DO NOTHING;
