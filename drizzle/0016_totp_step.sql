-- Issue 22: an authenticator code works once. The time-step of the last code accepted for the
-- secret is kept with it; a code of that step or an earlier one is refused, on every app server.
ALTER TABLE "two_factors" ADD COLUMN "last_totp_step" integer;
