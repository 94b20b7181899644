-- Metering by UTC day (issue 33 "Speed and scale"): closed days of UsageHour summed once per tenant
-- and day, so long ranges read days and hours are kept shorter.
CREATE TABLE "UsageDay" (
    "tenantId" TEXT NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "caller" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "admitted" BIGINT NOT NULL DEFAULT 0,
    "refused" BIGINT NOT NULL DEFAULT 0,
    "units" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("tenantId","day","rule","caller","tier")
);
CREATE INDEX "UsageDay_tenantId_caller_day_idx" ON "UsageDay"("tenantId", "caller", "day");

CREATE TABLE "UsageRollupDay" (
    "tenantId" TEXT NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "rolledUpAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UsageRollupDay_pkey" PRIMARY KEY ("tenantId","day")
);
CREATE INDEX "UsageRollupDay_day_idx" ON "UsageRollupDay"("day");
