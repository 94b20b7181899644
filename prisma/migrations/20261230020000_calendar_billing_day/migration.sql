-- A key's billing day (1..31): its monthly calendar quotas (scope key) start on that day of the
-- month in the rule's time zone instead of the 1st (lib/policy/compiled/billingAnchor.ts).
ALTER TABLE "ApiKey" ADD COLUMN "billingDay" INTEGER;
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_billingDay_range" CHECK ("billingDay" IS NULL OR ("billingDay" BETWEEN 1 AND 31));
