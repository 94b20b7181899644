-- Rules match the path the protected API sees (contract v3, rule field `match`): a gateway request
-- /api/v1/orders/42 is matched as /orders/42, the path forwarded to the upstream, as forward auth
-- and a tenant's host already matched it. Echo and check (Sluice's own routes) keep their full path.
-- So the rules of tenants WITH a gateway upstream (tenant rules and key overrides alike: both are
-- rows of "Rule") that named a gateway path under /api/v1 are rewritten to the path without it:
--   /api/v1/orders/*  ->  /orders/*
--   /api/v1/**        ->  /**   (which matches everything, echo and check included, as before)
--   /api/v1           ->  /     (the gateway's /api/v1 itself)
-- A path whose segment after /api/v1 is echo, check or authorize is Sluice's own route: kept.
-- A wildcard there (/api/v1/*/x) stands for gateway paths and Sluice's alike: it becomes /*/x,
-- which no longer meets echo or check (docs/rules.md). With `caseInsensitive` the prefix and the
-- segment are compared in any case, as the rule compares them. Tenants without an upstream are
-- untouched: their /api/v1 rules only ever met echo and check.
-- No semicolon but the last, in comments too: the migration runner splits the script on each one.
UPDATE "Rule"
SET "path" = CASE WHEN substr("path", 8) IN ('', '/') THEN '/' ELSE substr("path", 8) END
WHERE "path" IS NOT NULL
  AND "tenantId" IN (SELECT "tenantId" FROM "Upstream")
  AND (CASE WHEN "caseInsensitive" THEN lower("path") ELSE "path" END) ~ '^/api/v1(/|$)'
  AND (CASE WHEN "caseInsensitive" THEN lower(split_part("path", '/', 4)) ELSE split_part("path", '/', 4) END)
    NOT IN ('echo', 'check', 'authorize');
