import type { ReactNode } from "react";
import styles from "./ApiReference.module.css";
import { resolve, type JsonSchema, type OpenApiDoc } from "./openApiTypes";

/** One line of constraints: `integer · 1 … 1000000000 · default 1`. */
function summary(schema: JsonSchema): string {
  const parts: string[] = [];
  const type =
    schema.const !== undefined
      ? `= ${JSON.stringify(schema.const)}`
      : Array.isArray(schema.type)
        ? schema.type.join(" | ")
        : schema.type;
  if (type) parts.push(schema.type === "array" && schema.items?.type ? `array of ${String(schema.items.type)}` : type);
  if (schema.format) parts.push(schema.format);
  if (schema.enum) parts.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    parts.push(`${schema.minimum ?? "…"} … ${schema.maximum ?? "…"}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    parts.push(`${schema.minLength ?? 0} … ${schema.maxLength ?? "∞"} characters`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    parts.push(`${schema.minItems ?? 0} … ${schema.maxItems ?? "∞"} items`);
  if (schema.pattern) parts.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(" · ");
}

/** A JSON Schema as a nested list of fields; `depth` bounds recursion (schemas here are trees). */
export default function SchemaView({
  doc,
  schema,
  depth = 0,
}: {
  doc: OpenApiDoc;
  schema: JsonSchema;
  depth?: number;
}): ReactNode {
  const s = resolve<JsonSchema>(doc, schema);
  if (depth > 8) return <span className={styles.muted}>…</span>;
  const variants = s.anyOf ?? s.oneOf ?? s.allOf;
  return (
    <div className={styles.schema}>
      <span className={styles.type}>{summary(s) || (variants ? (s.allOf ? "all of" : "one of") : "any")}</span>
      {s.description && <span className={styles.schemaDescription}>{s.description}</span>}
      {s.properties && (
        <ul className={styles.fields}>
          {Object.entries(s.properties).map(([name, field]) => (
            <li key={name}>
              <code>{name}</code>
              {s.required?.includes(name) ? <span className={styles.required}>required</span> : null}
              <SchemaView doc={doc} schema={field} depth={depth + 1} />
            </li>
          ))}
        </ul>
      )}
      {s.type === "array" && s.items && (s.items.properties || s.items.$ref || s.items.anyOf) ? (
        <div className={styles.items}>
          items: <SchemaView doc={doc} schema={s.items} depth={depth + 1} />
        </div>
      ) : null}
      {variants && (
        <ul className={styles.fields}>
          {variants.map((v, i) => (
            <li key={i}>
              <SchemaView doc={doc} schema={v} depth={depth + 1} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
