-- Metering (issue 33): hourly usage per tenant, caller, rule and tier, the roll-up ledger, billing deliveries
CREATE TABLE "UsageHour" (
    "tenantId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "caller" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "admitted" BIGINT NOT NULL DEFAULT 0,
    "refused" BIGINT NOT NULL DEFAULT 0,
    "units" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("tenantId","hour","rule","caller","tier")
);
CREATE INDEX "UsageHour_tenantId_caller_hour_idx" ON "UsageHour"("tenantId", "caller", "hour");
CREATE INDEX "UsageHour_hour_idx" ON "UsageHour"("hour");

CREATE TABLE "UsageRollupMinute" (
    "prefix" TEXT NOT NULL,
    "minute" INTEGER NOT NULL,
    "rolledUpAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UsageRollupMinute_pkey" PRIMARY KEY ("prefix","minute")
);

CREATE TABLE "BillingDelivery" (
    "tenantId" TEXT NOT NULL,
    "periodStart" TIMESTAMP(3) NOT NULL,
    "periodEnd" TIMESTAMP(3) NOT NULL,
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "BillingDelivery_pkey" PRIMARY KEY ("tenantId","periodStart")
);
CREATE UNIQUE INDEX "BillingDelivery_id_key" ON "BillingDelivery"("id");
