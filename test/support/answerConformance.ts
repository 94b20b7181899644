/**
 * Whether an answer is what the OpenAPI document says the route answers: the body of a JSON answer
 * is checked against the documented zod schema of its method, path and status (lib/control/openapi/paths,
 * whose answer schemas are the ones the server code's types are inferred from), strictly: a key the
 * schema does not name fails (zod strips unknown keys of a plain object, so a key present in the
 * body but absent from the parsed value is one the schema does not describe; `z.looseObject` and
 * records keep theirs). An error answer is checked against the problem schema, a documented
 * no-content answer must be empty, and an undocumented 2xx/3xx status fails. Paths the document
 * does not describe are not checked (a test calling a handler on a made-up path).
 *
 * test/support/routeCall.ts and adminApi.ts run it on every answer of the route int tests.
 */
import type { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathItemObject } from "zod-openapi";
import { JSON_TYPE, problemSchema } from "@/lib/control/openapi/common";
import { ROUTE_GROUPS } from "@/lib/control/openapi/routeGroups";
import { PROBLEM_TYPE } from "@/lib/http/problem";

export interface Answer {
  method: string;
  /** The request path (a query is ignored). */
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body, the text of another body, or null when empty. */
  body: unknown;
}

interface DocumentedPath {
  template: string;
  pattern: RegExp;
  literals: number;
  item: ZodOpenApiPathItemObject;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function documentedPaths(groups: readonly Record<string, ZodOpenApiPathItemObject>[]): DocumentedPath[] {
  const out: DocumentedPath[] = [];
  for (const group of groups) {
    for (const [template, item] of Object.entries(group)) {
      const segments = template.split("/");
      const pattern = new RegExp(
        `^${segments.map((s) => (/^\{\w+\}$/.test(s) ? "[^/]+" : escapeRegExp(s))).join("/")}$`,
      );
      out.push({ template, pattern, literals: segments.filter((s) => !s.startsWith("{")).length, item });
    }
  }
  // The most literal template first: `/tenants/{tenantId}/tiers` before `/tenants/{tenantId}/{x}`.
  return out.sort((a, b) => b.literals - a.literals);
}

let paths: DocumentedPath[] | undefined;

/** The documented template of `path`, and its operation for `method` (undefined: not documented). */
export function documentedOperation(
  method: string,
  path: string,
  groups?: readonly Record<string, ZodOpenApiPathItemObject>[],
): { template: string; operation: ZodOpenApiOperationObject | undefined } | undefined {
  const list = groups ? documentedPaths(groups) : (paths ??= documentedPaths(ROUTE_GROUPS));
  const bare = path.split("?")[0]!;
  const found = list.find((p) => p.pattern.test(bare));
  if (!found) return undefined;
  const operation = found.item[method.toLowerCase() as "get"] as ZodOpenApiOperationObject | undefined;
  return { template: found.template, operation };
}

const isZod = (schema: unknown): schema is z.ZodType =>
  typeof schema === "object" && schema !== null && "safeParse" in schema;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keys of `input` (recursively) that `output`, its parsed value, dropped: ones the schema does not describe. */
export function undescribedKeys(input: unknown, output: unknown, at = ""): string[] {
  if (Array.isArray(input) && Array.isArray(output))
    return input.flatMap((item, i) => undescribedKeys(item, output[i], `${at}[${i}]`));
  if (!isPlainObject(input) || !isPlainObject(output)) return [];
  return Object.keys(input).flatMap((key) => {
    const where = at ? `${at}.${key}` : key;
    return key in output ? undescribedKeys(input[key], output[key], where) : [where];
  });
}

/** What is wrong with a body against `schema`: its zod issues, else its undescribed keys. */
export function schemaProblems(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body);
  if (!result.success)
    return result.error.issues.map((issue) => `${issue.path.map(String).join(".") || "(body)"}: ${issue.message}`);
  return undescribedKeys(body, result.data).map((key) => `${key}: not described by the schema`);
}

/** Everything in `answer` its documented response does not describe (empty: it conforms). */
export function answerProblems(answer: Answer, groups?: readonly Record<string, ZodOpenApiPathItemObject>[]): string[] {
  const found = documentedOperation(answer.method, answer.path, groups);
  if (!found) return [];
  if (answer.method === "HEAD") return answer.body === null ? [] : ["a HEAD answer with a body"];
  const isProblem = answer.contentType === PROBLEM_TYPE;
  const checkProblem = () =>
    isProblem ? schemaProblems(problemSchema, answer.body) : ["an error answer that is not problem+json"];
  const response = found.operation?.responses?.[String(answer.status) as "200"];
  if (!response) {
    if (answer.status >= 400) return checkProblem();
    return [`${answer.method} ${found.template} does not document status ${answer.status}`];
  }
  if ("$ref" in response) return checkProblem();
  const content = response.content as Record<string, { schema?: unknown }> | undefined;
  if (!content) return answer.body === null ? [] : [`status ${answer.status} is documented without a body`];
  if (isProblem && content[PROBLEM_TYPE]) return checkProblem();
  // A documented non-JSON form (the usage export's text/csv) is text: its type is what is checked.
  const sentType = (answer.contentType ?? "").split(";")[0]!.trim();
  if (!/json/.test(sentType) && content[sentType])
    return typeof answer.body === "string" ? [] : [`a ${sentType} answer that is not text`];
  const schema = content[JSON_TYPE]?.schema;
  if (!isZod(schema)) return [];
  if (!/json/.test(answer.contentType ?? "")) return [`a JSON answer was documented, ${answer.contentType} sent`];
  return schemaProblems(schema, answer.body);
}

/** Throws, naming each problem, when `answer` is not what its route documents. */
export function assertDocumentedAnswer(answer: Answer): void {
  const problems = answerProblems(answer);
  if (problems.length === 0) return;
  throw new Error(
    `${answer.method} ${answer.path} answered ${answer.status} with what its OpenAPI description (lib/control/openapi/paths) does not say:\n  ${problems.join("\n  ")}\nbody: ${JSON.stringify(answer.body).slice(0, 2000)}`,
  );
}
