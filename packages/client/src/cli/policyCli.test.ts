import { describe, expect, it } from "vitest";
import { EXIT, lineDiff, partOf, runCli, withEnv, type CliIo } from "./policyCli";

function io(
  files: Record<string, string> = {},
  answers: Response[] = [],
  env = { SLUICE_URL: "http://s.test", SLUICE_TOKEN: "t" },
) {
  const out: string[] = [];
  const err: string[] = [];
  const calls: { url: string; init: RequestInit }[] = [];
  const cli: CliIo = {
    env,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readText: async (path) => {
      if (!(path in files)) throw new Error(`ENOENT ${path}`);
      return files[path]!;
    },
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const next = answers.shift();
      if (!next) throw new Error("no answer left");
      return next;
    }) as unknown as typeof fetch,
  };
  return { cli, out: () => out.join(""), err: () => err.join(""), calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("lineDiff", () => {
  it("keeps common lines and marks removed and added ones", () => {
    expect(lineDiff(["a", "b", "c"], ["a", "x", "c", "d"])).toEqual(["    a", "  - b", "  + x", "    c", "  + d"]);
    expect(lineDiff([], ["a"])).toEqual(["  + a"]);
  });
});

describe("partOf", () => {
  it("reads a changed part's value by its path, key names with dots included", () => {
    const doc = { rules: [1], tiers: { pro: [2] }, keys: { "a.b": { tier: "pro", rules: [3] } } };
    expect(partOf(doc, "rules")).toEqual([1]);
    expect(partOf(doc, "tiers.pro")).toEqual([2]);
    expect(partOf(doc, "keys.a.b.tier")).toBe("pro");
    expect(partOf(doc, "tiers.gone")).toBeUndefined();
  });
});

describe("runCli", () => {
  it("exit 64 with the usage without a command or without SLUICE_URL", async () => {
    expect(await runCli([], io().cli)).toBe(EXIT.usage);
    const t = io({}, [], { SLUICE_URL: "", SLUICE_TOKEN: "t" });
    expect(await runCli(["export", "T1"], t.cli)).toBe(EXIT.usage);
    expect(t.err()).toMatch(/SLUICE_URL/);
  });

  it("export writes YAML with the tenant, and the ETag on stderr", async () => {
    const t = io({}, [json({ rules: [], access: { allow: [], deny: [] } }, 200, { etag: '"abc"' })]);
    expect(await runCli(["export", "T1"], t.cli)).toBe(EXIT.ok);
    expect(t.calls[0]!.url).toBe("http://s.test/api/admin/tenants/T1/policy");
    expect(t.out()).toContain("tenant: T1\nrules: []\naccess:\n  allow: []\n");
    expect(t.err()).toBe('etag: "abc"\n');
  });

  it("diff sends the document without tenant and etag as a dry run with If-Match, exit 2 and a diff on changes", async () => {
    const file = 'tenant: T1\netag: "e1"\nrules: []\naccess: { allow: [], deny: ["10.0.0.1"] }\n';
    const t = io({ "p.yaml": file }, [
      json({ changed: ["access"], dryRun: true }),
      json({ rules: [], access: { allow: [], deny: [] } }),
    ]);
    expect(await runCli(["diff", "-f", "p.yaml"], t.cli)).toBe(EXIT.changes);
    expect(t.calls[0]!.url).toBe("http://s.test/api/admin/tenants/T1/policy?dryRun=1");
    expect((t.calls[0]!.init.headers as Record<string, string>)["if-match"]).toBe('"e1"');
    expect(JSON.parse(String(t.calls[0]!.init.body))).toEqual({ rules: [], access: { allow: [], deny: ["10.0.0.1"] } });
    expect(t.out()).toContain("~ access\n");
    expect(t.out()).toContain("  - deny: []\n  + deny:\n  +   - 10.0.0.1\n");
  });

  it("diff exits 0 when nothing would change", async () => {
    const t = io({ "p.json": '{"tenant":"T1","rules":[]}' }, [json({ changed: [], dryRun: true })]);
    expect(await runCli(["diff", "-f", "p.json"], t.cli)).toBe(EXIT.ok);
    expect(t.out()).toMatch(/No changes/);
  });

  it("apply fails (exit 1) on a 412 or 422 with the server's message and each field", async () => {
    const problem = (status: number, body: Record<string, unknown>) =>
      new Response(JSON.stringify({ status, ...body }), {
        status,
        headers: { "content-type": "application/problem+json" },
      });
    const t = io({ "p.yaml": "rules: []\n" }, [
      problem(412, { title: "Precondition Failed", detail: "The tenant's policy changed since export." }),
      problem(422, { title: "Unprocessable Content", detail: "invalid", errors: { "rules.0.limit": ["too big"] } }),
    ]);
    expect(await runCli(["apply", "-f", "p.yaml", "--tenant", "T1", "--if-match", '"x"'], t.cli)).toBe(EXIT.failed);
    expect(t.err()).toContain("apply refused: 412 Precondition Failed\n  The tenant's policy changed since export.");
    expect(await runCli(["apply", "-f", "p.yaml", "--tenant", "T1"], t.cli)).toBe(EXIT.failed);
    expect(t.err()).toContain("  rules.0.limit: too big");
  });

  it("a file without a tenant (and no --tenant) is a usage error; a file that is not YAML fails", async () => {
    const t = io({ "p.yaml": "rules: []\n", "bad.yaml": "rules: [\n" });
    expect(await runCli(["apply", "-f", "p.yaml"], t.cli)).toBe(EXIT.usage);
    expect(await runCli(["apply", "-f", "bad.yaml", "--tenant", "T1"], t.cli)).toBe(EXIT.failed);
    expect(t.err()).toMatch(/not YAML or JSON/);
  });
});

describe("withEnv", () => {
  it("replaces exact ${env:NAME} strings at any depth and leaves other text alone", () => {
    const env = { HOOK: "https://hooks.example.com/x" };
    expect(withEnv({ alerts: { webhookUrl: "${env:HOOK}" }, l: ["a ${env:HOOK}"] }, env)).toEqual({
      alerts: { webhookUrl: "https://hooks.example.com/x" },
      l: ["a ${env:HOOK}"],
    });
  });

  it("fails the command when the variable is not set", async () => {
    const t = io({ "p.yaml": "tenant: T1\nalerts:\n  webhookUrl: ${env:MISSING_HOOK}\n" });
    expect(await runCli(["apply", "-f", "p.yaml"], t.cli)).toBe(EXIT.failed);
    expect(t.err()).toContain("${env:MISSING_HOOK}, which is not set");
  });
});
