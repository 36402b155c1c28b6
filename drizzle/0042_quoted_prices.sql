-- Every plan's price in the buyer's currency, as the provider quoted it for their country at checkout
-- (decision 0072): kept on the checkout and given to the license it buys, so that a trial's first charge,
-- a switch's plans and the cancel step's offers can be named outside US dollars. Rows from before stay
-- null: those name no amount outside US dollars, as before, rather than a guessed one.
ALTER TABLE "checkouts" ADD COLUMN "quoted_prices" jsonb;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "quoted_prices" jsonb;
