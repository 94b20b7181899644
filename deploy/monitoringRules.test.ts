/**
 * deploy/prometheus and deploy/grafana against the metrics Sluice really exports: promtool
 * accepts the rules and passes their unit tests, and every metric a rule or a dashboard query
 * names is in the registry of lib/monitoring/prometheus/metrics.ts (or is one of the recording rules).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { metrics } from "@/lib/monitoring/prometheus/metrics";

const run = promisify(execFile);
const DIR = path.dirname(fileURLToPath(import.meta.url));
const RULES = path.join(DIR, "prometheus/sluice.rules.yml");

type RuleFile = { groups: { name: string; rules: { record?: string; alert?: string; expr: string }[] }[] };
const ruleFile = parse(readFileSync(RULES, "utf8")) as RuleFile;
const rules = ruleFile.groups.flatMap((g) => g.rules);
type Dashboard = { panels: { title: string; targets: { expr: string }[] }[] };
const dashboard = JSON.parse(readFileSync(path.join(DIR, "grafana/sluice-dashboard.json"), "utf8")) as Dashboard;

/** Every series name the registry exports (histograms as _bucket, _sum and _count). */
async function exportedNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await metrics().registry.getMetricsAsJSON()) {
    // prom-client types `type` as a numeric enum; at run time it is the exposition's type name.
    const type = String(metric.type);
    if (type === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(metric.name + suffix);
    else if (type === "summary") for (const suffix of ["", "_sum", "_count"]) names.add(metric.name + suffix);
    else names.add(metric.name);
  }
  return names;
}

/** The metric names a PromQL expression mentions: Sluice's own all start with `sluice_` or `sluice:`. */
function metricNamesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return [...new Set(withoutStrings.match(/\bsluice[_:][A-Za-z0-9_:]*/g) ?? [])];
}

describe("Prometheus rules", () => {
  it("pass promtool check rules", async () => {
    const { stdout } = await run("promtool", ["check", "rules", RULES]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  }, 60_000);

  it("pass their promtool unit tests (refusal spike, fail modes, Redis errors, reload failures, simulator cost, subject budget)", async () => {
    const { stdout } = await run("promtool", ["test", "rules", path.join(DIR, "prometheus/sluice.rules.test.yml")], {
      cwd: path.join(DIR, "prometheus"),
    });
    expect(stdout).toContain("SUCCESS");
  }, 60_000);

  it("alert on what the issue asks for", () => {
    const alerts = rules.flatMap((r) => (r.alert ? [r.alert] : []));
    expect(alerts).toEqual(
      expect.arrayContaining([
        "SluiceRuleRefusalSpike",
        "SluiceFailModeActive",
        "SluiceRedisErrors",
        "SluiceRuleReloadFailing",
        "SluiceSimulatorCostHigh",
        "SluiceSubjectBudgetFolding",
      ]),
    );
  });

  it("name only metrics the registry exports, or recording rules", async () => {
    const known = new Set([...(await exportedNames()), ...rules.flatMap((r) => (r.record ? [r.record] : []))]);
    const unknown = rules.flatMap((r) =>
      metricNamesIn(r.expr)
        .filter((m) => !known.has(m))
        .map((m) => `${r.record ?? r.alert}: ${m}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe("Grafana dashboard", () => {
  it("queries only metrics the registry exports, or recording rules, and every query names one", async () => {
    const known = new Set([...(await exportedNames()), ...rules.flatMap((r) => (r.record ? [r.record] : []))]);
    const problems: string[] = [];
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        const names = metricNamesIn(target.expr);
        if (names.length === 0) problems.push(`${panel.title}: ${target.expr} names no Sluice metric`);
        for (const name of names) if (!known.has(name)) problems.push(`${panel.title}: unknown metric ${name}`);
      }
    }
    expect(dashboard.panels.length).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });

  it("the metric-name parser finds names and ignores label values", () => {
    expect(
      metricNamesIn(
        'sum by (rule) (rate(sluice_rule_results_total{result="sluice_fake"}[5m])) / sluice:rule_requests:rate5m',
      ),
    ).toEqual(["sluice_rule_results_total", "sluice:rule_requests:rate5m"]);
  });
});
