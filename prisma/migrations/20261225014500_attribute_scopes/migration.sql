-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "Scope" ADD VALUE 'header';
ALTER TYPE "Scope" ADD VALUE 'query';

-- AlterTable
ALTER TABLE "Rule" ADD COLUMN     "onMissing" TEXT,
ADD COLUMN     "scopeKey" TEXT;

-- Hand-written: the two values lib/rules/ruleSchema.ts accepts.
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_onMissing_check" CHECK ("onMissing" IS NULL OR "onMissing" IN ('skip', 'refuse'));
