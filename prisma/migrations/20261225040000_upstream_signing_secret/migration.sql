-- AlterTable
ALTER TABLE "Upstream" ADD COLUMN     "signingSecret" TEXT;
