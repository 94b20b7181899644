-- AlterTable
ALTER TABLE "Rule" ADD COLUMN     "caseInsensitive" BOOLEAN NOT NULL DEFAULT false;
