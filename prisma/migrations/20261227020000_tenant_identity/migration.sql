-- CreateTable
CREATE TABLE "TenantIdentity" (
    "tenantId" TEXT NOT NULL,
    "apiKeys" BOOLEAN NOT NULL DEFAULT true,
    "anonymous" BOOLEAN NOT NULL DEFAULT false,
    "jwt" JSONB,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TenantIdentity_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "TenantHost" (
    "host" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,

    CONSTRAINT "TenantHost_pkey" PRIMARY KEY ("host")
);

-- CreateIndex
CREATE INDEX "TenantHost_tenantId_idx" ON "TenantHost"("tenantId");

-- AddForeignKey
ALTER TABLE "TenantIdentity" ADD CONSTRAINT "TenantIdentity_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TenantHost" ADD CONSTRAINT "TenantHost_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
