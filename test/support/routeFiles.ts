/**
 * The API routes that exist, found by reading the route files under app/api: each file's OpenAPI
 * path(s) and the methods it really serves (exported methods, less those it answers 405 through
 * `notAllowed([...])`, lib/http/methodNotAllowed.ts). Used by openApiDocument.test.ts to fail on
 * a route without a description. Reads source text only: nothing is imported or started.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DATA_PLANE_ROUTES } from "@/lib/dataplane/routes";
import { HTTP_METHODS, type HttpMethod } from "@/lib/http/httpMethods";

export interface ServedRoute {
  /** The route file, relative to the repository. */
  file: string;
  /** OpenAPI path templates (an optional catch-all has two: without and with its segments). */
  paths: string[];
  methods: HttpMethod[];
}

/** Every `route.ts` (or .tsx/.js/.mjs) file below `dir`, found by walking it. */
export async function routeFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await routeFiles(full)));
    else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) found.push(full);
  }
  return found;
}

/** `api/admin/tenants/[tenantId]` → `/api/admin/tenants/{tenantId}`; `[[...rest]]` gives two paths. */
export function openApiPaths(routeDir: string): string[] {
  let variants = [""];
  for (const segment of routeDir.split("/")) {
    const optional = /^\[\[\.\.\.(\w+)\]\]$/.exec(segment);
    const param = /^\[(?:\.\.\.)?(\w+)\]$/.exec(segment);
    if (optional) variants = variants.flatMap((v) => [v, `${v}/{${optional[1]}}`]);
    else variants = variants.map((v) => `${v}/${param ? `{${param[1]}}` : segment}`);
  }
  return variants;
}

/** The methods a route module serves, from its source. */
export function servedMethods(source: string): HttpMethod[] {
  const exported = new Set<HttpMethod>();
  for (const statement of source.match(/^export\b[^;]*/gm) ?? []) {
    for (const method of HTTP_METHODS)
      if (new RegExp(`\\b${method}\\b`).test(statement.replace(/"[^"]*"/g, ""))) exported.add(method);
  }
  const allowList = /notAllowed\(\s*\[([^\]]*)\]\s*\)/.exec(source);
  if (!allowList) return [...exported];
  const allowed = new Set((allowList[1] ?? "").match(/[A-Z]+/g) ?? []);
  return [...exported].filter((m) => allowed.has(m));
}

/** The answer to unknown paths under /api (a 404 problem for every method): not an API to describe. */
const NOT_FOUND_ROUTE = "api/[[...path]]";

export async function servedRoutes(root: string, apiDir = "app/api"): Promise<ServedRoute[]> {
  // /api/v1 is served by the data plane, which has no route files: its declared routes.
  const out: ServedRoute[] = DATA_PLANE_ROUTES.map((r) => ({
    file: "lib/dataplane/routes.ts",
    paths: r.paths,
    methods: r.methods,
  }));
  for (const file of (await routeFiles(path.join(root, apiDir))).sort()) {
    const dir = path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep).join("/");
    if (dir === NOT_FOUND_ROUTE) continue;
    out.push({
      file: path.relative(root, file),
      paths: openApiPaths(dir),
      methods: servedMethods(await readFile(file, "utf8")),
    });
  }
  return out;
}
