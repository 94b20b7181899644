-- CreateTable
CREATE TABLE "AccessLists" (
    "tenantId" TEXT NOT NULL,
    "allow" TEXT[],
    "deny" TEXT[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AccessLists_pkey" PRIMARY KEY ("tenantId")
);

-- AddForeignKey
ALTER TABLE "AccessLists" ADD CONSTRAINT "AccessLists_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
