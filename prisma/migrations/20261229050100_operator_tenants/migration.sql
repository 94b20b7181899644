-- AlterTable
ALTER TABLE "Operator" ADD COLUMN     "tenantIds" TEXT[] DEFAULT ARRAY[]::TEXT[];
