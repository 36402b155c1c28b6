-- Offline activation (decision 0071): each uploaded activation request, the machine it activated and its
-- nonce, unique per license so the same request cannot be used twice.
CREATE TABLE "offline_activations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"machine_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"nonce" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offline_activations" ADD CONSTRAINT "offline_activations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_activations" ADD CONSTRAINT "offline_activations_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_activations" ADD CONSTRAINT "offline_activations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offline_activations_license_nonce_key" ON "offline_activations" USING btree ("license_id","nonce");--> statement-breakpoint
CREATE INDEX "offline_activations_machine_id_idx" ON "offline_activations" USING btree ("machine_id");--> statement-breakpoint
CREATE INDEX "offline_activations_user_id_idx" ON "offline_activations" USING btree ("user_id");