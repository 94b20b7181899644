-- Calendar quotas (issue 33): a fixed_window rule may count per day, week or month in a time zone.
ALTER TABLE "Rule" ADD COLUMN "period" TEXT;
ALTER TABLE "Rule" ADD COLUMN "timeZone" TEXT;
