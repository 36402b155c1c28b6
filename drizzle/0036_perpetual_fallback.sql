-- Perpetual fallback served (decisions 0066 and 0070): the period each payment paid for, which the rule
-- counts, and the fallback version stored on the license, so the desktop API reads it with the license.
ALTER TABLE "licenses" ADD COLUMN "fallback_version" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "period_end" timestamp with time zone;--> statement-breakpoint
-- Existing paid subscription charges: the period from the charge for the license's plan's months. A next
-- charge of the same license within 14 days after that end (the provider's late retry, decision 0023)
-- continues the period, as the provider's billing periods do, so a late renewal splits no run.
WITH charged AS (
	SELECT p."id", p."billed_at",
		p."billed_at" + make_interval(months => CASE l."license_type" WHEN 'monthly' THEN 1 WHEN '6_months' THEN 6 ELSE 12 END) AS "plan_end",
		lead(p."billed_at") OVER (PARTITION BY p."license_id" ORDER BY p."billed_at", p."id") AS "next_billed_at"
	FROM "payments" p
	JOIN "licenses" l ON l."id" = p."license_id"
	WHERE p."kind" IN ('purchase', 'renewal', 'plan_change') AND p."amount_cents" > 0
		AND l."license_type" IN ('monthly', '6_months', 'yearly')
)
UPDATE "payments" SET
	"period_start" = charged."billed_at",
	"period_end" = CASE
		WHEN charged."next_billed_at" > charged."plan_end" AND charged."next_billed_at" <= charged."plan_end" + interval '14 days'
			THEN charged."next_billed_at"
		ELSE charged."plan_end" END
FROM charged
WHERE "payments"."id" = charged."id";--> statement-breakpoint
-- Existing paid extensions: the months their checkout bought, from the charge.
UPDATE "payments" SET "period_start" = "payments"."billed_at",
	"period_end" = "payments"."billed_at" + make_interval(months => c."months")
FROM "checkouts" c
WHERE c."transaction_id" = "payments"."id" AND "payments"."kind" = 'extension' AND "payments"."amount_cents" > 0
	AND c."months" > 0;
