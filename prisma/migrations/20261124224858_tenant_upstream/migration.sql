-- CreateTable
CREATE TABLE "Upstream" (
    "tenantId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "timeoutMs" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Upstream_pkey" PRIMARY KEY ("tenantId")
);

-- AddForeignKey
ALTER TABLE "Upstream" ADD CONSTRAINT "Upstream_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the range lib/gateway/upstreamSchema.ts accepts.
ALTER TABLE "Upstream" ADD CONSTRAINT "Upstream_timeoutMs_range" CHECK ("timeoutMs" BETWEEN 100 AND 120000);
