/**
 * No server module reaches the browser. Every file of app/ and components/ that starts with
 * "use client" is a root of the browser bundle; this walks its value imports (relative and `@/`,
 * the way the bundler does: `import type` and all-`type` specifier lists are erased, so they are
 * not followed) and fails, naming the import chain, when one reaches
 * - a module marked `import "server-only"` (the Prisma and Redis clients, configuration, sessions,
 *   password hashing, the peer-secret check...), or
 * - a Node built-in or a server-only package (ioredis, pg, Prisma, argon2, prom-client, undici).
 * Next would fail the build on the first only for a direct import with a readable message; this
 * names the chain, and covers the second, which Next reports only as an unresolved module.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE = /\.(ts|tsx|js|mjs)$/;
const SERVER_PACKAGES = /^(node:|ioredis$|pg$|@prisma\/|@node-rs\/|prom-client$|undici$|server-only$)/;
const SERVER_ONLY = /^import "server-only";$/m;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), "utf8");
const isClientRoot = (rel: string) => /^(\s*(\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*["']use client["']/.test(read(rel));

const importsOf = new Map<string, string[]>();

/** The module specifiers `rel` imports for their values (what a bundler keeps). */
function valueImports(rel: string): string[] {
  const known = importsOf.get(rel);
  if (known) return known;
  const file = ts.createSourceFile(rel, read(rel), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const onlyTypes = (names: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
    names.length > 0 && names.every((n) => n.isTypeOnly);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          onlyTypes(clause.namedBindings.elements));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause && ts.isNamedExports(node.exportClause) && onlyTypes(node.exportClause.elements));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  importsOf.set(rel, found);
  return found;
}

/** The repository file `specifier` names from `from`, or null for a package. */
function resolveLocal(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.join(path.dirname(from), specifier);
  else return null;
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.js`,
    `${base}.mjs`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
    base.replace(/\.js$/, ".ts"),
  ];
  const hit = candidates.find((c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile());
  if (!hit) throw new Error(`${from}: cannot resolve ${specifier}`);
  return hit;
}

/** Every server module or package reachable from `root`, each with the import chain that reaches it. */
function serverReach(root: string): string[] {
  const parent = new Map<string, string | null>([[root, null]]);
  const chain = (rel: string) => {
    const steps: string[] = [];
    for (let at: string | null | undefined = rel; at; at = parent.get(at)) steps.unshift(at);
    return steps.join(" -> ");
  };
  const problems: string[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const rel = queue.shift()!;
    if (rel !== root && SERVER_ONLY.test(read(rel))) {
      problems.push(`${chain(rel)} (server-only)`);
      continue;
    }
    for (const specifier of valueImports(rel)) {
      const local = resolveLocal(rel, specifier);
      if (local === null) {
        if (SERVER_PACKAGES.test(specifier)) problems.push(`${chain(rel)} -> ${specifier}`);
      } else if (SOURCE.test(local) && !parent.has(local)) {
        parent.set(local, rel);
        queue.push(local);
      }
    }
  }
  return problems;
}

const clientRoots = [...sourceFiles("app"), ...sourceFiles("components")].filter(isClientRoot);

describe("the browser bundle", () => {
  it('has client roots to check (the walk sees every "use client" file)', () => {
    expect(clientRoots.length).toBeGreaterThan(40);
    expect(clientRoots).toContain("components/tenants/CreateTenantForm.tsx");
  });

  it.each(clientRoots)("%s reaches no server module", (root) => {
    expect(serverReach(root)).toEqual([]);
  });

  it("the walk does find server modules: a route handler reaches the Prisma client and configuration", () => {
    const reached = serverReach("app/api/admin/tenants/route.ts").join("\n");
    expect(reached).toMatch(/lib\/config\/config\.ts \(server-only\)/);
    expect(reached).toMatch(
      /lib\/dataplane\/admission\/clientIp\.ts \(server-only\)|lib\/db\/client\.ts \(server-only\)/,
    );
  });
});
