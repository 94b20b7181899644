-- CreateEnum
CREATE TYPE "Scope" AS ENUM ('key', 'tenant', 'ip', 'identifier');

-- CreateEnum
CREATE TYPE "Algorithm" AS ENUM ('fixed_window', 'sliding_log', 'sliding_window', 'token_bucket', 'gcra');

-- CreateEnum
CREATE TYPE "FailMode" AS ENUM ('open', 'closed', 'local');

-- CreateEnum
CREATE TYPE "RuleMode" AS ENUM ('enforce', 'shadow');

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'viewer');

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "nextRuleRef" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Rule" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "scope" "Scope" NOT NULL,
    "algorithm" "Algorithm" NOT NULL,
    "limit" INTEGER NOT NULL,
    "windowMs" BIGINT NOT NULL,
    "burst" INTEGER NOT NULL,
    "cost" INTEGER NOT NULL,
    "methods" TEXT[],
    "path" TEXT,
    "failMode" "FailMode" NOT NULL,
    "mode" "RuleMode" NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Rule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RuleRef" (
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ref" INTEGER NOT NULL,

    CONSTRAINT "RuleRef_pkey" PRIMARY KEY ("tenantId","name")
);

-- CreateTable
CREATE TABLE "Operator" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Operator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "tenantId" TEXT,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_prefix_key" ON "ApiKey"("prefix");

-- CreateIndex
CREATE INDEX "ApiKey_tenantId_idx" ON "ApiKey"("tenantId");

-- CreateIndex
CREATE INDEX "Rule_tenantId_idx" ON "Rule"("tenantId");

-- CreateIndex
CREATE INDEX "Rule_keyId_idx" ON "Rule"("keyId");

-- CreateIndex
CREATE UNIQUE INDEX "RuleRef_tenantId_ref_key" ON "RuleRef"("tenantId", "ref");

-- CreateIndex
CREATE UNIQUE INDEX "Operator_email_key" ON "Operator"("email");

-- CreateIndex
CREATE INDEX "AuditEvent_tenantId_at_idx" ON "AuditEvent"("tenantId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RuleRef" ADD CONSTRAINT "RuleRef_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the contract's constraints, enforced by the database too (lib/rules/ruleSchema.ts
-- gives the per-field messages, these are the last line of defence).
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_id_check" CHECK ("id" ~ '^[0-9A-Za-z]{8}$');
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_name_check" CHECK (char_length("name") BETWEEN 1 AND 128);
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_id_check" CHECK ("id" ~ '^[0-9A-Za-z]{8}$');
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_name_check" CHECK (char_length("name") BETWEEN 1 AND 128);
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_name_check" CHECK ("name" ~ '^[a-z0-9][a-z0-9_-]{0,63}$');
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_limit_check" CHECK ("limit" BETWEEN 1 AND 1000000000);
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_windowMs_check" CHECK ("windowMs" BETWEEN 1000 AND 31622400000);
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_burst_check" CHECK ("burst" BETWEEN 1 AND 1000000000);
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_cost_check" CHECK ("cost" BETWEEN 0 AND 1000000000);
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_path_check" CHECK ("path" IS NULL OR "path" LIKE '/api/v1%');
-- A key override may not charge the whole tenant or an identifier.
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_key_scope_check" CHECK ("keyId" IS NULL OR "scope" IN ('key', 'ip'));
-- Names are unique within their owner: the tenant's own list, and each key's list.
CREATE UNIQUE INDEX "Rule_tenant_name_key" ON "Rule"("tenantId", "name") WHERE "keyId" IS NULL;
CREATE UNIQUE INDEX "Rule_key_name_key" ON "Rule"("keyId", "name") WHERE "keyId" IS NOT NULL;
ALTER TABLE "RuleRef" ADD CONSTRAINT "RuleRef_ref_check" CHECK ("ref" >= 1);
ALTER TABLE "Operator" ADD CONSTRAINT "Operator_email_check" CHECK (char_length("email") BETWEEN 3 AND 254);
