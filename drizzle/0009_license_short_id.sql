-- A short, stable id a customer can read to support: FK- and two groups of four Crockford base32
-- characters (no I, L, O or U). Drawn at random by the database so every insert path gets one; a
-- draw that is already taken is drawn again, and the unique constraint settles any race.
CREATE FUNCTION "new_license_short_id"() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
	candidate text;
	i integer;
BEGIN
	LOOP
		candidate := 'FK-';
		FOR i IN 1..8 LOOP
			candidate := candidate || substr(alphabet, 1 + floor(random() * 32)::integer, 1);
			IF i = 4 THEN
				candidate := candidate || '-';
			END IF;
		END LOOP;
		EXIT WHEN NOT EXISTS (SELECT 1 FROM "licenses" WHERE "short_id" = candidate);
	END LOOP;
	RETURN candidate;
END;
$$;
--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "short_id" text;--> statement-breakpoint
UPDATE "licenses" SET "short_id" = new_license_short_id();--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "short_id" SET DEFAULT new_license_short_id();--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "short_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_short_id_unique" UNIQUE("short_id");
