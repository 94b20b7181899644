/**
 * The route files that exist under app/api, found by walking the folder at test time, each
 * imported with the HTTP methods it exports, checked against ROUTE_TABLE (routeTable.ts).
 *
 * `routeInventory()` answers every (route, method, spec, handler) the table covers, and the
 * discrepancies: a route file or an exported method the table does not list, or a table entry
 * with no file or export behind it. Import after the environment is set (routeTestEnv).
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { routeFiles } from "../support/routeFiles";
import type { RouteHandler } from "@/test/support/routeCall";
import { HTTP_METHODS, type HttpMethod } from "@/lib/http/httpMethods";
import type { MethodSpec } from "./routeSpecs";
import { ROUTE_TABLE } from "./routeTable";

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../app");

export interface RouteMethod {
  /** e.g. `api/admin/tenants/[tenantId]/keys` */
  route: string;
  method: HttpMethod;
  spec: MethodSpec;
  handler: RouteHandler;
}

export interface Inventory {
  methods: RouteMethod[];
  problems: string[];
}

export async function routeInventory(): Promise<Inventory> {
  const problems: string[] = [];
  const methods: RouteMethod[] = [];
  const files = await routeFiles(path.join(APP_DIR, "api"));
  const routes = new Set<string>();
  for (const file of files.sort()) {
    const route = path.relative(APP_DIR, path.dirname(file)).split(path.sep).join("/");
    routes.add(route);
    const spec = ROUTE_TABLE[route];
    if (!spec) {
      problems.push(`${route}: route file not in test/security/routeTable.ts`);
      continue;
    }
    if ("outside" in spec) continue;
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
    const exported = HTTP_METHODS.filter((m) => typeof mod[m] === "function");
    for (const method of exported) {
      const methodSpec = spec.methods[method];
      if (!methodSpec) problems.push(`${route}: exports ${method}, which the route table does not list`);
      else methods.push({ route, method, spec: methodSpec, handler: mod[method] as RouteHandler });
    }
    for (const method of Object.keys(spec.methods) as HttpMethod[]) {
      if (!exported.includes(method))
        problems.push(`${route}: the route table lists ${method}, which the route file does not export`);
    }
  }
  for (const route of Object.keys(ROUTE_TABLE))
    if (!routes.has(route)) problems.push(`${route}: in the route table, but there is no such route file`);
  return { methods, problems };
}
