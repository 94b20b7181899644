-- Tiers (plans): a key's tier, and rules owned by a tier (lib/policy/tiers).

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "tier" TEXT;

-- AlterTable
ALTER TABLE "Rule" ADD COLUMN     "tier" TEXT;

-- CreateIndex
CREATE INDEX "Rule_tenantId_tier_idx" ON "Rule"("tenantId", "tier");

-- A rule belongs to a tenant, a key or a tier: never to a key and a tier at once.
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_key_or_tier" CHECK ("keyId" IS NULL OR "tier" IS NULL);
