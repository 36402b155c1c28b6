-- The units a payment's transaction billed (a team's seats, 1 for a personal license): a team's renewal
-- in another currency is priced as its seats × the last full charge of one seat (decision 0072). Payments
-- recorded before stay null: their renewal names no amount, as before, rather than a guessed one.
ALTER TABLE "payments" ADD COLUMN "quantity" integer;
