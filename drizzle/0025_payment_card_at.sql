-- A review of the support back office (decision 0038): the stored card (brand, last 4) follows the newest
-- event that named one; an older transaction event processed later (webhooks arrive out of order) must not
-- replace it. NULL: no ordering known yet (any event may set the card).
ALTER TABLE "licenses" ADD COLUMN "payment_card_at" timestamp with time zone;
