ALTER TABLE "releases" ADD COLUMN "installer_size_bytes" bigint;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "installer_sha256" text;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_installer_size_check" CHECK ("releases"."installer_size_bytes" > 0);--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_installer_sha256_check" CHECK ("releases"."installer_sha256" ~ '^[0-9a-f]{64}$');
