-- CreateTable
CREATE TABLE "IdentifierOverride" (
    "tenantId" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "limit" INTEGER NOT NULL,
    "windowMs" BIGINT,
    "burst" INTEGER,

    CONSTRAINT "IdentifierOverride_pkey" PRIMARY KEY ("tenantId","rule","identifier")
);

-- AddForeignKey
ALTER TABLE "IdentifierOverride" ADD CONSTRAINT "IdentifierOverride_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
