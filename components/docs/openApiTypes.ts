/** The parts of an OpenAPI 3.1 document the API reference reads (lib/control/openapi builds the document). */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

export type Ref = { $ref: string };
export type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema };
export type Header = { description?: string; schema?: JsonSchema };
export type MediaTypes = Record<string, { schema?: JsonSchema }>;
export type ResponseObject = { description?: string; headers?: Record<string, Header | Ref>; content?: MediaTypes };
export type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: (Parameter | Ref)[];
  requestBody?: { description?: string; content?: MediaTypes };
  responses?: Record<string, ResponseObject | Ref>;
};
export type OpenApiDoc = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    responses?: Record<string, ResponseObject>;
    headers?: Record<string, Header>;
    securitySchemes?: Record<string, { description?: string }>;
  };
};

export const HTTP_METHODS = ["get", "head", "post", "put", "patch", "delete", "options"] as const;

/** Follows a local `#/components/...` reference; anything else is returned as it is. */
export function resolve<T>(doc: OpenApiDoc, value: T | Ref): T {
  if (!value || typeof value !== "object" || !("$ref" in value) || typeof value.$ref !== "string") return value as T;
  const parts = value.$ref.replace(/^#\//, "").split("/");
  let node: unknown = doc;
  for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
  return (node ?? value) as T;
}
