-- Grants for JWT subjects and tiers (issue 33): extra units for a tenant's caller until a date.
CREATE TABLE "CallerGrant" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "subject" TEXT,
    "tier" TEXT,
    "rule" TEXT,
    "units" INTEGER NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,

    CONSTRAINT "CallerGrant_pkey" PRIMARY KEY ("id"),
    -- Exactly one of a subject and a tier.
    CONSTRAINT "CallerGrant_one_caller" CHECK (("subject" IS NULL) <> ("tier" IS NULL))
);

CREATE INDEX "CallerGrant_tenantId_until_idx" ON "CallerGrant"("tenantId", "until");

ALTER TABLE "CallerGrant" ADD CONSTRAINT "CallerGrant_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
