/**
 * deploy/traefik/dynamic.yml read as Traefik would (Traefik is not installed here: its routers are
 * evaluated by the small model below): every router decides through Sluice's /api/v1/authorize
 * with the tenant and key copied from the decision, and what reaches the API never carries the
 * client's Sluice key (Authorization: Bearer sluice_..., x-api-key: sluice_...) while any other
 * credential (a JWT, Basic, the API's own key) passes. The router model: rules are `&&` of
 * PathPrefix(`/`) and HeaderRegexp(`Name`, `go-regexp`); the highest priority matching router wins;
 * a `headers` middleware's empty customRequestHeaders value removes that header.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

type Middleware = {
  forwardAuth?: { address: string; trustForwardHeader: boolean; authResponseHeaders: string[] };
  headers?: { customRequestHeaders?: Record<string, string> };
};
type Router = { entryPoints: string[]; rule: string; priority?: number; middlewares: string[]; service: string };
type Dynamic = { http: { middlewares: Record<string, Middleware>; routers: Record<string, Router> } };

const DIR = path.dirname(fileURLToPath(import.meta.url));
const config = parse(readFileSync(path.join(DIR, "traefik/dynamic.yml"), "utf8")) as Dynamic;
const { middlewares, routers } = config.http;

/** A Go regexp of the forms the config uses as a JS RegExp (`(?i)` as the `i` flag). */
function goRegExp(source: string): RegExp {
  return source.startsWith("(?i)") ? new RegExp(source.slice(4), "i") : new RegExp(source);
}

function ruleMatches(rule: string, headers: Record<string, string>): boolean {
  return rule.split(" && ").every((term) => {
    if (term === "PathPrefix(`/`)") return true;
    const header = /^HeaderRegexp\(`([^`]+)`, `([^`]+)`\)$/.exec(term);
    if (!header) throw new Error(`the model does not know the rule term ${term}`);
    const value = headers[header[1]!.toLowerCase()];
    return value !== undefined && goRegExp(header[2]!).test(value);
  });
}

/** The router Traefik picks: the matching one of highest priority (default: the rule's length). */
function route(headers: Record<string, string>): Router {
  const matching = Object.values(routers)
    .filter((r) => ruleMatches(r.rule, headers))
    .sort((a, b) => (b.priority ?? b.rule.length) - (a.priority ?? a.rule.length));
  if (!matching[0]) throw new Error("no router matches");
  return matching[0];
}

/** The client's headers as the API receives them through `router`'s middlewares. */
function toApi(headers: Record<string, string>): Record<string, string> {
  const sent = { ...headers };
  for (const name of route(headers).middlewares) {
    for (const [field, value] of Object.entries(middlewares[name]!.headers?.customRequestHeaders ?? {})) {
      if (value === "") delete sent[field.toLowerCase()];
      else sent[field.toLowerCase()] = value;
    }
  }
  return sent;
}

const KEY = "sluice_Ab3dEf9h_0123456789abcdefABCDEF";
const JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJl";

describe("deploy/traefik/dynamic.yml", () => {
  it("decides every request through Sluice's /api/v1/authorize first, copying tenant and key from the decision; X-Forwarded-Host is Traefik's own (the Host asked for), so the tenant host decides", () => {
    const auth = middlewares.sluice!.forwardAuth!;
    expect(new URL(auth.address).pathname).toBe("/api/v1/authorize");
    expect(auth.trustForwardHeader).toBe(false);
    expect(auth.authResponseHeaders).toEqual(["X-Sluice-Tenant", "X-Sluice-Key"]);
    for (const router of Object.values(routers)) {
      expect(router.middlewares[0], router.rule).toBe("sluice");
      expect(router.entryPoints).toEqual(["web"]);
    }
  });

  it.each([
    ["Authorization: Bearer <Sluice key>", { authorization: `Bearer ${KEY}` }, {}],
    ["Authorization: bearer <Sluice key> (any case)", { authorization: `bearer  ${KEY}` }, {}],
    ["Authorization: <Sluice key> (no scheme)", { authorization: KEY }, {}],
    ["x-api-key: <Sluice key>", { "x-api-key": KEY }, {}],
    ["both", { authorization: `Bearer ${KEY}`, "x-api-key": KEY }, {}],
    [
      "x-api-key: <Sluice key> beside a JWT",
      { authorization: `Bearer ${JWT}`, "x-api-key": KEY },
      { authorization: `Bearer ${JWT}` },
    ],
    [
      "Authorization: Basic beside the key",
      { authorization: "Basic dXNlcjpwYXNz", "x-api-key": KEY },
      { authorization: "Basic dXNlcjpwYXNz" },
    ],
    ["a JWT alone", { authorization: `Bearer ${JWT}` }, { authorization: `Bearer ${JWT}` }],
    [
      "the API's own key in x-api-key",
      { authorization: `Bearer ${KEY}`, "x-api-key": "api-own-key" },
      { "x-api-key": "api-own-key" },
    ],
  ])("%s: the API gets no Sluice key, and every other credential", (_name, headers, expected) => {
    expect(toApi(headers)).toEqual(expected);
  });
});
