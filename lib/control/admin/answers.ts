/**
 * Admin answers composed of several stores' answers, as zod schemas (the one description of their
 * shape; the single-store answers sit beside their stores: lib/policy/tenants/tenantAnswers.ts,
 * lib/policy/keys/keyAnswers.ts, lib/policy/upstreams/upstreamSchema.ts).
 */
import { z } from "zod";
import { tenantSchema } from "../../policy/tenants/tenantAnswers";
import { upstreamViewSchema } from "../../policy/upstreams/upstreamSchema";

/** GET /api/admin/tenants/{id}: the tenant with its gateway upstream (null when none). */
export const tenantDetailSchema = tenantSchema.extend({ upstream: upstreamViewSchema.nullable() });
export type TenantDetail = z.infer<typeof tenantDetailSchema>;
