/**
 * `sluice`, the policy-as-code CLI (docs/operations.md "GitOps"): a tenant's policy document
 * (GET/PUT /api/admin/tenants/{tenantId}/policy) as a YAML (or JSON) file kept in git.
 *
 *   sluice export <tenantId> [--etag] > policy.yaml   the policy, with `tenant:` (and `etag:` with --etag)
 *   sluice diff  -f policy.yaml [--tenant <id>]       what applying the file would change (a dry run)
 *   sluice apply -f policy.yaml [--tenant <id>] [--if-match <etag>]
 *
 * Reads SLUICE_URL (the server) and SLUICE_TOKEN (an admin API token, e.g. one limited to the
 * tenant). The file's `tenant` names the tenant unless --tenant does; its `etag` (or --if-match)
 * is sent as If-Match, so an apply over a policy changed since that export is refused (412).
 * A string value `${env:NAME}` is replaced by that environment variable (secrets such as the
 * alerts' webhook URL stay out of git).
 * Exit codes, for CI: 0 success (diff: no change), 2 diff found changes, 1 refused or failed (the
 * server's message on stderr, each invalid field with its path), 64 a usage error.
 */
import { readFile } from "node:fs/promises";
import { parse, stringify } from "yaml";

export const EXIT = { ok: 0, failed: 1, changes: 2, usage: 64 } as const;

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  readText?: (path: string) => Promise<string>;
  fetch?: typeof fetch;
}

const USAGE = `usage:
  sluice export <tenantId> [--etag]
  sluice diff -f <file> [--tenant <tenantId>]
  sluice apply -f <file> [--tenant <tenantId>] [--if-match <etag>]
environment: SLUICE_URL (the Sluice server), SLUICE_TOKEN (an admin API token)`;

class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.failed,
  ) {
    super(message);
  }
}

interface Args {
  command: string;
  positional: string[];
  flags: Record<string, string | true>;
}

function parseArgs(argv: string[]): Args {
  const [command = "", ...rest] = argv;
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const name = arg === "-f" ? "file" : arg.startsWith("--") ? arg.slice(2) : null;
    if (name === null) positional.push(arg);
    else if (name === "etag" || name === "help") flags[name] = true;
    else {
      const value = rest[++i];
      if (value === undefined) throw new CliError(`${arg} needs a value\n${USAGE}`, EXIT.usage);
      flags[name] = value;
    }
  }
  return { command, positional, flags };
}

/** Runs one command; resolves to the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.flags.help || args.command === "" || args.command === "help") {
      io.out(`${USAGE}\n`);
      return args.command === "" ? EXIT.usage : EXIT.ok;
    }
    const server = connection(io);
    switch (args.command) {
      case "export":
        return await exportCommand(args, server, io);
      case "diff":
      case "apply":
        return await applyCommand(args, server, io, args.command === "diff");
      default:
        throw new CliError(`unknown command ${JSON.stringify(args.command)}\n${USAGE}`, EXIT.usage);
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`sluice: ${error.message}\n`);
      return error.code;
    }
    io.err(`sluice: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}

interface Server {
  call(
    method: "GET" | "PUT",
    tenantId: string,
    init?: { query?: string; body?: unknown; ifMatch?: string },
  ): Promise<Response>;
}

function connection(io: CliIo): Server {
  const url = io.env.SLUICE_URL;
  const token = io.env.SLUICE_TOKEN;
  if (!url)
    throw new CliError("SLUICE_URL is not set (the Sluice server, e.g. https://sluice.example.com)", EXIT.usage);
  if (!token) throw new CliError("SLUICE_TOKEN is not set (an admin API token)", EXIT.usage);
  const doFetch = io.fetch ?? fetch;
  return {
    call: (method, tenantId, init = {}) =>
      doFetch(
        `${url.replace(/\/+$/, "")}/api/admin/tenants/${encodeURIComponent(tenantId)}/policy${init.query ?? ""}`,
        {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: "application/json",
            ...(init.body === undefined ? {} : { "content-type": "application/json" }),
            ...(init.ifMatch ? { "if-match": init.ifMatch } : {}),
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        },
      ),
  };
}

/** The server's refusal as a CliError: its detail and, for a 422, each field's messages. */
async function refusal(response: Response, what: string): Promise<CliError> {
  const text = await response.text();
  let problem: { detail?: string; title?: string; errors?: Record<string, string[]> } = {};
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    // not a problem body: the status says it
  }
  const lines = [`${what} refused: ${response.status} ${problem.title ?? response.statusText}`];
  if (problem.detail) lines.push(`  ${problem.detail}`);
  for (const [path, messages] of Object.entries(problem.errors ?? {}))
    for (const message of messages) lines.push(`  ${path || "(document)"}: ${message}`);
  return new CliError(lines.join("\n"));
}

async function exportCommand(args: Args, server: Server, io: CliIo): Promise<number> {
  const tenantId = args.positional[0];
  if (!tenantId || args.positional.length > 1) throw new CliError(`export takes one tenant id\n${USAGE}`, EXIT.usage);
  const response = await server.call("GET", tenantId);
  if (!response.ok) throw await refusal(response, "export");
  const etag = response.headers.get("etag") ?? "";
  const document = (await response.json()) as Record<string, unknown>;
  const file = { tenant: tenantId, ...(args.flags.etag ? { etag } : {}), ...document };
  io.out(`# Sluice policy of tenant ${tenantId} (sluice export). Apply: sluice apply -f <this file>\n`);
  io.out(stringify(file, { lineWidth: 0 }));
  io.err(`etag: ${etag}\n`);
  return EXIT.ok;
}

interface PolicyFile {
  tenantId: string;
  etag: string | undefined;
  document: Record<string, unknown>;
}

async function readPolicyFile(args: Args, io: CliIo): Promise<PolicyFile> {
  const path = args.flags.file;
  if (typeof path !== "string") throw new CliError(`-f <file> is required\n${USAGE}`, EXIT.usage);
  const text = await (io.readText ?? ((p) => readFile(p, "utf8")))(path === "-" ? "/dev/stdin" : path);
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new CliError(`${path} is not YAML or JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new CliError(`${path} must hold a policy document (an object with rules, keys, tiers, ...)`);
  const { tenant, etag, ...document } = parsed as Record<string, unknown>;
  const tenantId = typeof args.flags.tenant === "string" ? args.flags.tenant : tenant;
  if (typeof tenantId !== "string" || tenantId === "")
    throw new CliError(`${path} names no tenant: add "tenant: <id>" or pass --tenant <id>`, EXIT.usage);
  if (etag !== undefined && typeof etag !== "string") throw new CliError(`${path}: etag must be text`);
  const given = typeof args.flags["if-match"] === "string" ? args.flags["if-match"] : etag;
  // An ETag is quoted (`"abc"`); a file or shell that dropped the quotes still means it.
  const ifMatch = given === undefined || /^(W\/)?".*"$/.test(given) ? given : `"${given}"`;
  return { tenantId, etag: ifMatch, document: withEnv(document, io.env) as Record<string, unknown> };
}

const ENV_REF = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * Every string value that is exactly `${env:NAME}` replaced by that environment variable, so a
 * secret (the alerts' webhook URL) comes from CI's secrets, never from git. An unset one fails.
 */
export function withEnv(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === "string") {
    const name = ENV_REF.exec(value)?.[1];
    if (name === undefined) return value;
    const set = env[name];
    if (set === undefined || set === "") throw new CliError(`the file refers to \${env:${name}}, which is not set`);
    return set;
  }
  if (Array.isArray(value)) return value.map((v) => withEnv(v, env));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withEnv(v, env)]));
  return value;
}

async function applyCommand(args: Args, server: Server, io: CliIo, dryRun: boolean): Promise<number> {
  const file = await readPolicyFile(args, io);
  const what = dryRun ? "diff" : "apply";
  const response = await server.call("PUT", file.tenantId, {
    query: dryRun ? "?dryRun=1" : "",
    body: file.document,
    ifMatch: file.etag,
  });
  if (!response.ok) throw await refusal(response, what);
  const { changed } = (await response.json()) as { changed: string[] };
  if (changed.length === 0) {
    io.out(`No changes: tenant ${file.tenantId}'s policy is what ${String(args.flags.file)} says.\n`);
    return EXIT.ok;
  }
  if (!dryRun) {
    io.out(`Applied to tenant ${file.tenantId}: ${changed.join(", ")}\n`);
    return EXIT.ok;
  }
  const current = await server.call("GET", file.tenantId);
  if (!current.ok) throw await refusal(current, "export");
  const have = (await current.json()) as Record<string, unknown>;
  io.out(
    `${changed.length} part${changed.length === 1 ? "" : "s"} of tenant ${file.tenantId}'s policy would change:\n`,
  );
  for (const part of changed) {
    io.out(`\n~ ${part}\n`);
    for (const line of lineDiff(asYaml(partOf(have, part)), asYaml(partOf(file.document, part)))) io.out(`${line}\n`);
  }
  return EXIT.changes;
}

/** `keys.alice.rules` → document.keys.alice.rules (a key name may hold dots: the field is the last part). */
export function partOf(document: Record<string, unknown>, part: string): unknown {
  const dot = part.indexOf(".");
  if (dot < 0) return document[part];
  const head = part.slice(0, dot);
  const rest = part.slice(dot + 1);
  const group = document[head] as Record<string, unknown> | undefined;
  if (head !== "keys") return group?.[rest];
  const last = rest.lastIndexOf(".");
  return (group?.[rest.slice(0, last)] as Record<string, unknown> | undefined)?.[rest.slice(last + 1)];
}

const asYaml = (value: unknown): string[] =>
  value === undefined ? [] : stringify(value, { lineWidth: 0 }).replace(/\n$/, "").split("\n");

/** A line diff (longest common subsequence): `  ` kept, `- ` only in `a`, `+ ` only in `b`. */
export function lineDiff(a: string[], b: string[]): string[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(`    ${a[i]}`);
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`  - ${a[i++]}`);
    else out.push(`  + ${b[j++]}`);
  }
  return out;
}
