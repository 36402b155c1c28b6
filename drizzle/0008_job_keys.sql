CREATE TABLE "job_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
