import path from "node:path";
import { fileURLToPath } from "node:url";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GET } from "@/app/api/openapi.json/route";
import { tenantRulesSchema } from "../admin/schemas";
import { buildOpenApiDocument, openApiDocument } from "./openApiDocument";
import { openApiPaths, servedMethods, servedRoutes } from "@/test/support/routeFiles";
import { ROUTE_GROUPS } from "./routeGroups";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
type Operation = { summary?: string; description?: string; responses?: Record<string, unknown> };
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { headers: object; content: object }> };
};
const doc = () => openApiDocument() as unknown as Doc;
/** The operation `method` of `path`, failing the test when it is not described. */
function operation(document: Doc, path: string, method: string): Operation {
  const op = document.paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return op;
}

async function problemsOf(document: unknown) {
  const config = await createConfig({
    extends: ["recommended"],
    rules: {
      "info-license": "off",
      "info-license-url": "off",
      "no-server-example.com": "off",
      "operation-4xx-response": "off",
    },
  });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config });
  return problems
    .filter((p) => p.severity === "error")
    .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 (Redocly's validator, recommended rules)", async () => {
    expect(doc().openapi).toBe("3.1.0");
    expect(await problemsOf(openApiDocument())).toEqual([]);
  });

  it("the validator catches a broken document (a response without description, a dangling $ref)", async () => {
    const broken = structuredClone(openApiDocument()) as unknown as Doc;
    operation(broken, "/api/admin/tenants", "get").responses = {
      "200": { content: {} },
      "404": { $ref: "#/components/responses/Nope" },
    };
    expect((await problemsOf(broken)).length).toBeGreaterThan(0);
  });

  it("describes every method of every route file under app/api", async () => {
    const routes = await servedRoutes(ROOT);
    expect(routes.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const route of routes) {
      for (const p of route.paths) {
        for (const method of route.methods) {
          const op = doc().paths[p]?.[method.toLowerCase()];
          if (!op || !(op.summary || op.description)) missing.push(`${method} ${p} (${route.file})`);
        }
      }
    }
    expect(missing, "routes without a description in lib/control/openapi/paths/*.ts").toEqual([]);
  });

  it("describes nothing that does not exist", async () => {
    const served = new Set(
      (await servedRoutes(ROOT)).flatMap((r) => r.paths.flatMap((p) => r.methods.map((m) => `${m} ${p}`))),
    );
    const stale = Object.entries(doc().paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((k) => ["get", "head", "post", "put", "patch", "delete", "options"].includes(k))
        .map((m) => `${m.toUpperCase()} ${p}`)
        .filter((op) => !served.has(op)),
    );
    expect(stale).toEqual([]);
  });

  it("renders request bodies from the schemas the routes validate with", () => {
    const put = operation(doc(), "/api/admin/tenants/{tenantId}/rules", "put") as unknown as {
      requestBody: { content: Record<string, { schema: unknown }> };
    };
    const direct: Record<string, unknown> = {
      ...z.toJSONSchema(tenantRulesSchema, { io: "input", target: "draft-2020-12" }),
    };
    delete direct.$schema;
    expect(put.requestBody.content["application/json"]?.schema).toEqual(direct);
  });

  it("documents a rule's penalty (blockMs) with its bounds and default", () => {
    const put = operation(doc(), "/api/admin/tenants/{tenantId}/rules", "put") as unknown as {
      requestBody: { content: Record<string, { schema: unknown }> };
    };
    const text = JSON.stringify(put.requestBody.content["application/json"]?.schema);
    expect(text).toMatch(/"blockMs":\{[^}]*"default":0/);
    expect(text).toMatch(/"blockMs":\{[^}]*"maximum":31622400000/);
    expect(text).toMatch(/"blockMs":\{[^}]*"description":"Penalty in ms/);
  });

  it("documents the rate-limit headers and problem answers of the client API", () => {
    const check = operation(doc(), "/api/v1/check", "post") as unknown as {
      responses: Record<string, { headers?: object; $ref?: string }>;
    };
    expect(Object.keys(check.responses["200"]?.headers ?? {})).toEqual(
      expect.arrayContaining(["RateLimit", "RateLimit-Policy", "X-RateLimit-Reset"]),
    );
    expect(check.responses["429"]?.$ref).toBe("#/components/responses/TooManyRequests");
    const tooMany = doc().components.responses.TooManyRequests;
    expect(Object.keys(tooMany?.headers ?? {})).toContain("Retry-After");
    expect(Object.keys(tooMany?.content ?? {})).toEqual(["application/problem+json"]);
  });

  it("refuses a path described by two route groups", () => {
    expect(() => buildOpenApiDocument([...ROUTE_GROUPS, { "/api/health": {} }])).toThrow(/two route groups/);
  });

  it("is served at GET /api/openapi.json without credentials", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(((await response.json()) as Doc).openapi).toBe("3.1.0");
  });
});

describe("route files", () => {
  it("map to OpenAPI paths, optional catch-alls to two", () => {
    expect(openApiPaths("api/admin/tenants/[tenantId]/keys")).toEqual(["/api/admin/tenants/{tenantId}/keys"]);
    expect(openApiPaths("api/v1/[...path]")).toEqual(["/api/v1/{path}"]);
    expect(openApiPaths("api/v1/echo/[[...rest]]")).toEqual(["/api/v1/echo", "/api/v1/echo/{rest}"]);
  });

  it("serve their exported methods less those answered 405", () => {
    expect(
      servedMethods(
        `export const GET = a;\nexport const POST = b;\nexport const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);`,
      ),
    ).toEqual(["GET", "POST"]);
    expect(servedMethods(`const x = y;\nexport { x as GET, x as POST };`)).toEqual(["GET", "POST"]);
    expect(servedMethods(`export async function GET() {}\nexport const { POST } = notAllowed(["GET"]);`)).toEqual([
      "GET",
    ]);
  });
});
