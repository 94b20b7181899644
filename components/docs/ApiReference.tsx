/**
 * The API reference of the dashboard: the OpenAPI document (lib/control/openapi) rendered as plain
 * server-rendered React, grouped by tag. No client script and no runtime <style> element, so it
 * lives under the pages' strict nonce CSP as it is (the maintained renderers inject <style>
 * elements or need 'unsafe-eval'; see docs/integrations.md "API documentation").
 */
import SchemaView from "./SchemaView";
import styles from "./ApiReference.module.css";
import {
  HTTP_METHODS,
  resolve,
  type Header,
  type OpenApiDoc,
  type Operation,
  type Parameter,
  type ResponseObject,
} from "./openApiTypes";

type Entry = { path: string; method: string; op: Operation };

function entriesByTag(doc: OpenApiDoc): Map<string, Entry[]> {
  const byTag = new Map<string, Entry[]>((doc.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ path, method, op });
    }
  }
  return byTag;
}

const anchor = (e: Entry) => e.op.operationId ?? `${e.method}-${e.path.replace(/[^a-z0-9]+/gi, "-")}`;

function credentials(op: Operation): string {
  if (!op.security || op.security.length === 0) return "none";
  return op.security.map((req) => Object.keys(req).join(" + ")).join(" or ");
}

function OperationView({ doc, entry }: { doc: OpenApiDoc; entry: Entry }) {
  const { op, method, path } = entry;
  const params = (op.parameters ?? []).map((p) => resolve<Parameter>(doc, p));
  return (
    <article className={styles.operation} id={anchor(entry)}>
      <h3 className={styles.operationTitle}>
        <span className={`${styles.method} ${styles[method] ?? ""}`}>{method.toUpperCase()}</span>
        <code className={styles.path}>{path}</code>
        {op.summary && <span className={styles.summary}>{op.summary}</span>}
      </h3>
      {op.description && <p className={styles.description}>{op.description}</p>}
      <p className={styles.meta}>Credentials: {credentials(op)}</p>
      {params.length > 0 && (
        <section>
          <h4>Parameters</h4>
          <ul className={styles.fields}>
            {params.map((p) => (
              <li key={`${p.in}:${p.name}`}>
                <code>{p.name}</code> <span className={styles.muted}>in {p.in}</span>
                {p.required ? <span className={styles.required}>required</span> : null}
                {p.schema && (
                  <SchemaView doc={doc} schema={{ ...p.schema, description: p.description ?? p.schema.description }} />
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {op.requestBody?.content && (
        <section>
          <h4>Request body</h4>
          {Object.entries(op.requestBody.content).map(([type, media]) => (
            <div key={type}>
              <span className={styles.muted}>{type}</span>
              {media.schema && <SchemaView doc={doc} schema={media.schema} />}
            </div>
          ))}
        </section>
      )}
      <section>
        <h4>Responses</h4>
        <ul className={styles.responses}>
          {Object.entries(op.responses ?? {}).map(([status, raw]) => {
            const response = resolve<ResponseObject>(doc, raw);
            const headers = Object.entries(response.headers ?? {}).map(
              ([name, h]) => [name, resolve<Header>(doc, h)] as const,
            );
            return (
              <li key={status}>
                <details>
                  <summary>
                    <span className={`${styles.status} ${status.startsWith("2") ? styles.ok : styles.error}`}>
                      {status}
                    </span>{" "}
                    {response.description}
                  </summary>
                  {headers.length > 0 && (
                    <ul className={styles.fields}>
                      {headers.map(([name, h]) => (
                        <li key={name}>
                          <code>{name}</code> <span className={styles.muted}>header</span> {h.description}
                        </li>
                      ))}
                    </ul>
                  )}
                  {Object.entries(response.content ?? {}).map(([type, media]) => (
                    <div key={type}>
                      <span className={styles.muted}>{type}</span>
                      {media.schema && <SchemaView doc={doc} schema={media.schema} />}
                    </div>
                  ))}
                </details>
              </li>
            );
          })}
        </ul>
      </section>
    </article>
  );
}

export default function ApiReference({ doc }: { doc: OpenApiDoc }) {
  const groups = [...entriesByTag(doc)].filter(([, entries]) => entries.length > 0);
  const tagDescription = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
  return (
    <div className={styles.reference}>
      <div className="page-header">
        <h1>
          {doc.info.title} <span className={styles.muted}>v{doc.info.version}</span>
        </h1>
        <a href="/api/openapi.json">openapi.json</a>
      </div>
      {doc.info.description && <p className={styles.description}>{doc.info.description}</p>}
      <nav aria-label="Operations" className={styles.toc}>
        {groups.map(([tag, entries]) => (
          <div key={tag}>
            <strong>{tag}</strong>
            <ul>
              {entries.map((e) => (
                <li key={anchor(e)}>
                  <a href={`#${anchor(e)}`}>
                    {e.method.toUpperCase()} {e.path}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {groups.map(([tag, entries]) => (
        <section key={tag} className="card" aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`}>{tag}</h2>
          {tagDescription.get(tag) && <p className={styles.muted}>{tagDescription.get(tag)}</p>}
          {entries.map((e) => (
            <OperationView key={anchor(e)} doc={doc} entry={e} />
          ))}
        </section>
      ))}
    </div>
  );
}
