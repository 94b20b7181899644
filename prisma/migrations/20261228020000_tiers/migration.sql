-- Tiers (plans): a key's tier, and rules owned by a tier (lib/policy/tiers).

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "tier" TEXT;

-- AlterTable
ALTER TABLE "Rule" ADD COLUMN     "tier" TEXT;

-- CreateIndex
CREATE INDEX "Rule_tenantId_tier_idx" ON "Rule"("tenantId", "tier");

-- A rule belongs to a tenant, a key or a tier: never to a key and a tier at once.
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_key_or_tier" CHECK ("keyId" IS NULL OR "tier" IS NULL);

-- Rule names are unique within their owner's list: the tenant's own rules (no key, no tier), and
-- each tier's (a tier rule may share a tenant rule's name: it replaces it for the tier's callers).
DROP INDEX "Rule_tenant_name_key";
CREATE UNIQUE INDEX "Rule_tenant_name_key" ON "Rule"("tenantId", "name") WHERE "keyId" IS NULL AND "tier" IS NULL;
CREATE UNIQUE INDEX "Rule_tier_name_key" ON "Rule"("tenantId", "tier", "name") WHERE "tier" IS NOT NULL;
