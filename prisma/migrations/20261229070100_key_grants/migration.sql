-- Grants (issue 33): extra units for one key on a rule until a date.
CREATE TABLE "KeyGrant" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "rule" TEXT,
    "units" INTEGER NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,

    CONSTRAINT "KeyGrant_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "KeyGrant_tenantId_until_idx" ON "KeyGrant"("tenantId", "until");
CREATE INDEX "KeyGrant_keyId_idx" ON "KeyGrant"("keyId");

ALTER TABLE "KeyGrant" ADD CONSTRAINT "KeyGrant_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "KeyGrant" ADD CONSTRAINT "KeyGrant_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
