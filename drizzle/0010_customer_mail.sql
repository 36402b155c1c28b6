ALTER TABLE "users" ADD COLUMN "reminder_emails" boolean DEFAULT true NOT NULL;
