/**
 * How the typed client puts path parameters into a URL. openapi-fetch encodes every parameter as
 * one segment (`encodeURIComponent`), so `orders/42` in the gateway's catch-all became
 * `/api/v1/orders%2F42`, which Sluice refuses (an encoded `/` is a 400, CONTRACT "HTTP semantics").
 * The catch-all parameters below stand for several segments: each segment is encoded on its own
 * and the `/` between them kept. Every other parameter (ids, names) stays one encoded segment, so
 * a value with a `/` can never reach another path.
 */
import { defaultPathSerializer, type PathSerializer } from "openapi-fetch";

/** The document's paths whose last parameter is a catch-all (`[...path]` routes), and its name. */
export const CATCH_ALL_PARAMS: Readonly<Record<string, string>> = {
  "/api/v1/{path}": "path",
  "/api/v1/echo/{rest}": "rest",
};

/** `a/b c/42` -> `a/b%20c/42`: each segment encoded, the slashes between them kept. */
export function encodeSegments(value: string): string {
  return value.split("/").map(encodeURIComponent).join("/");
}

/** openapi-fetch hands over the base URL and the document's path (`https://s.example/api/v1/{path}`). */
export const sluicePathSerializer: PathSerializer = (url, pathParams) => {
  for (const [template, name] of Object.entries(CATCH_ALL_PARAMS)) {
    const value = pathParams?.[name];
    if (!url.endsWith(template) || typeof value !== "string") continue;
    return url.slice(0, -`{${name}}`.length) + encodeSegments(value.replace(/^\/+/, ""));
  }
  return defaultPathSerializer(url, pathParams);
};
