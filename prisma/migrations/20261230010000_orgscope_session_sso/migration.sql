-- A session opened by single sign-on remembers the issuer, so logout can end the IdP's session too
-- (RP-initiated logout, lib/control/auth/ssoLogout.ts).
ALTER TABLE "Session" ADD COLUMN "ssoIssuer" TEXT;
