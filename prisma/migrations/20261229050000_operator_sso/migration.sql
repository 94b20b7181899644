-- AlterTable
ALTER TABLE "Operator" ADD COLUMN     "ssoIssuer" TEXT,
ADD COLUMN     "ssoSubject" TEXT,
ALTER COLUMN "passwordHash" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Operator_ssoIssuer_ssoSubject_key" ON "Operator"("ssoIssuer", "ssoSubject");
