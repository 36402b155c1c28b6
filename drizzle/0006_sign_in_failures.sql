CREATE TABLE "sign_in_failures" (
	"email" text NOT NULL,
	"client_ip" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_failures_email_client_ip_pk" PRIMARY KEY("email","client_ip")
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_last_failure_at_idx" ON "sign_in_failures" USING btree ("last_failure_at");