/** A tenant's access lists, /api/admin/tenants/{tenantId}/access (matching itself: lib/dataplane/admission/admit.ts). */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { accessListsSchema } from "../../../policy/access/accessListSchema";
import { MAX_ACCESS_ENTRIES } from "../../../common/fieldLimits";
import { adminOperation, errors, jsonAnswer, jsonBody, tenantIdPath } from "../common";

/** As stored: canonical entries, no repeats. */
export const storedAccessListsSchema = z.object({
  allow: z
    .array(z.string())
    .meta({ description: "Clients that pass every rule without being charged (unless also denied)." }),
  deny: z.array(z.string()).meta({ description: "Clients refused with 403 before any rule, charged nothing." }),
});

const ENTRIES = `Entries: an IPv4 or IPv6 address, a CIDR block (its network address: \`10.0.0.0/8\`), or \`key:<keyId>\`; at most ${MAX_ACCESS_ENTRIES.toLocaleString("en")} per list. Matched against the client IP that \`ip\` rules limit by (SLUICE_TRUST_PROXY applies), the whole address; an IPv4-mapped IPv6 client matches IPv4 entries. Deny wins over allow.`;

export const accessListPaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants/{tenantId}/access": {
    get: adminOperation("read", {
      operationId: "getAccessLists",
      tags: ["Tenants"],
      summary: "The tenant's access lists",
      description: `Both lists are empty for a tenant that never set any. ${ENTRIES}`,
      requestParams: { path: tenantIdPath },
      responses: { "200": jsonAnswer("The allow and deny lists.", storedAccessListsSchema), ...errors("not_found") },
    }),
    put: adminOperation("write", {
      operationId: "putAccessLists",
      tags: ["Tenants"],
      summary: "Replace the tenant's access lists",
      description: `Replaces both lists. An invalid entry is a 422 naming it (field \`allow.<i>\` or \`deny.<i>\`). Audited; in force everywhere within 1 s. ${ENTRIES}`,
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(accessListsSchema),
      responses: {
        "200": jsonAnswer("The lists as stored.", storedAccessListsSchema),
        ...errors("not_found", "invalid"),
      },
    }),
  },
};
