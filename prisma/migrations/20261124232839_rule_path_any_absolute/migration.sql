-- A rule's path may be any absolute path: the request's path under /api/v1, or the forwarded path
-- (e.g. /orders/*) for forward auth at /api/v1/authorize (../shared/CONTRACT.md: "path: starts with /").
ALTER TABLE "Rule" DROP CONSTRAINT "Rule_path_check";
ALTER TABLE "Rule" ADD CONSTRAINT "Rule_path_check" CHECK ("path" IS NULL OR "path" LIKE '/%');
