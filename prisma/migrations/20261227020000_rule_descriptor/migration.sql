-- AlterEnum
ALTER TYPE "Scope" ADD VALUE 'descriptor';

-- AlterTable
ALTER TABLE "Rule" ADD COLUMN     "descriptor" JSONB;
