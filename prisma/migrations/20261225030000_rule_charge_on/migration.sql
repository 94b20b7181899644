-- AlterTable
ALTER TABLE "Rule" ADD COLUMN     "chargeOn" TEXT[] DEFAULT ARRAY[]::TEXT[];
