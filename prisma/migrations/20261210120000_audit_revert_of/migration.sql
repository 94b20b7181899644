-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "revertOf" BIGINT;
